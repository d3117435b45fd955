"""The table's own TLS certificate: made once, kept beside the journal, its fingerprint said.

A club's Wi-Fi is shared, so the referee's view (every secret) travels over
TLS.  No public authority can vouch for a box under a table, so the box
makes its own self-signed certificate the first time the web console runs,
and prints its SHA-256 fingerprint: a careful owner compares it with what
the phone shows before trusting it.  The key never leaves the folder (0600).
"""
from __future__ import annotations

import datetime
import ipaddress
import os
from collections.abc import Iterable
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

CERT = "cert.pem"
KEY = "key.pem"
#: Years a certificate lasts: it is the box's, replaced only by deleting it.
YEARS = 10


def certificate(folder: Path, hosts: Iterable[str]) -> tuple[Path, Path]:
    """The folder's certificate and key, made now if missing (for `hosts` and loopback)."""
    cert, key = folder / CERT, folder / KEY
    if cert.exists() and key.exists():
        return cert, key
    names = dict.fromkeys(["localhost", "127.0.0.1", *hosts])
    private = ec.generate_private_key(ec.SECP256R1())
    alt: list[x509.GeneralName] = []
    for name in names:
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            alt.append(x509.DNSName(name))
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "kikimimi table")])
    now = datetime.datetime.now(datetime.timezone.utc)
    built = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
             .public_key(private.public_key()).serial_number(x509.random_serial_number())
             .not_valid_before(now - datetime.timedelta(days=1))
             .not_valid_after(now + datetime.timedelta(days=365 * YEARS))
             .add_extension(x509.SubjectAlternativeName(alt), critical=False)
             .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
             .sign(private, hashes.SHA256()))
    _write(key, private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption()))
    _write(cert, built.public_bytes(serialization.Encoding.PEM))
    return cert, key


def fingerprint(cert: Path) -> str:
    """SHA-256 of the certificate, as browsers show it (AB:CD:...)."""
    loaded = x509.load_pem_x509_certificate(cert.read_bytes())
    return ":".join(f"{b:02X}" for b in loaded.fingerprint(hashes.SHA256()))


def _write(path: Path, data: bytes) -> None:
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, data)
    finally:
        os.close(fd)
    os.replace(temp, path)
