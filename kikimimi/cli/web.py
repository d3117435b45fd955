"""`kikimimi web`: the table's web console for phones (kikimimi/web/, docs/web.md).

    kikimimi web TABLE.toml                       serve it (the table file's [web] addresses)
    kikimimi web pair TABLE.toml --role referee   a one-time code for a phone (5 minutes)
    kikimimi web devices TABLE.toml               the paired devices
    kikimimi web revoke TABLE.toml DEVICE         unpair one

It runs beside `kikimimi serve` as the same user (it reads the table's
secret to referee through the API, like the terminal console).
"""
from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path

from kikimimi.cli import CliError

ACTIONS = ("pair", "devices", "revoke")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("web", help="the web console for phones: serve it, pair a device, list or revoke devices",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("words", nargs="*", metavar="[ACTION] TABLE.toml [DEVICE]",
                   help="TABLE.toml to serve; or pair/devices/revoke and the table file "
                        "(with --journal, the table file may be left out)")
    p.add_argument("--role", choices=("referee", "owner"), default="referee", help="pair: what the device may do")
    p.add_argument("--bind", action="append", default=[], metavar="ADDRESS:PORT",
                   help="serve over TLS here instead of [web] bind (repeatable)")
    p.add_argument("--audience", action="append", default=[], metavar="ADDRESS:PORT",
                   help="serve the audience view as plain HTTP here instead of [web] audience")
    p.add_argument("--journal", help="the table's journal, if not the table file's")
    p.set_defaults(func=cmd_web)


def _table(path: str | None, journal: str | None) -> tuple[Path, dict[str, object], Path | None]:
    from kikimimi.table.config import ConfigError, load_table_config

    if path is None:
        if not journal:
            raise CliError("which table? give its file (kikimimi web TABLE.toml) or --journal JOURNAL")
        return Path(journal), {}, None
    try:
        config = load_table_config(path)
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    return (Path(journal) if journal else config.journal), dict(config.web), config.path


def cmd_web(args: argparse.Namespace) -> int:
    words = list(args.words)
    action = words.pop(0) if words and words[0] in ACTIONS else "serve"
    want = {"serve": 1, "pair": 1, "devices": 1, "revoke": 2}[action]
    if args.journal and len(words) == want - 1:  # the table named by its journal alone
        words.insert(0, None)
    if len(words) != want:
        usage = {"serve": "kikimimi web TABLE.toml", "pair": "kikimimi web pair TABLE.toml --role referee",
                 "devices": "kikimimi web devices TABLE.toml", "revoke": "kikimimi web revoke TABLE.toml DEVICE"}
        raise CliError(f"usage: {usage[action]}")
    try:  # every part, so a missing library is one line here and never a traceback later
        from kikimimi.web import serve as _serve_mod  # noqa: F401  (uvicorn, starlette, cryptography)
        from kikimimi.web import store as store_mod
    except ModuleNotFoundError as exc:
        raise CliError(f"the web console is not installed ({exc.name} missing): pip install 'kikimimi[web]'") from None
    journal, section, config_path = _table(words[0], args.journal)
    store = store_mod.Store(store_mod.folder_for(journal))
    try:
        if action == "pair":
            return _pair(store, args.role, journal, section)
        if action == "devices":
            devices = store.devices()
            if not devices:
                print("no paired devices (pair one: kikimimi web pair TABLE.toml --role referee)")
            for d in devices:
                when = datetime.datetime.fromtimestamp(d.paired).strftime("%Y-%m-%d %H:%M")
                print(f"{d.id}\t{d.role}\tpaired {when}\t{d.name}")
            return 0
        if action == "revoke":
            if not store.revoke(words[1]):
                raise CliError(f"no paired device {words[1]!r} (kikimimi web devices TABLE.toml lists them)")
            print(f"device {words[1]} revoked: its next request is refused")
            return 0
    except store_mod.StoreError as exc:
        raise CliError(str(exc)) from None
    return _serve(journal, section, config_path, args)


def _pair(store: object, role: str, journal: Path, section: dict[str, object]) -> int:
    from kikimimi.web import tls
    from kikimimi.web.serve import WebError, web_config
    from kikimimi.web.store import CODE_LIFETIME, Store

    assert isinstance(store, Store)
    store.ensure()
    try:
        config = web_config(journal, section)
    except WebError as exc:
        raise CliError(str(exc)) from None
    cert, _ = tls.certificate(store.folder, config.hosts)
    code = store.new_code(role)
    host, port = config.bind[0]
    print(f"pairing code for a {role}: {code[:3]} {code[3:]} (once, for {int(CODE_LIFETIME // 60)} minutes)")
    print(f"open https://{host}:{port}/pair on the phone; the certificate's SHA-256 fingerprint is "
          f"{tls.fingerprint(cert)}")
    return 0


def _serve(journal: Path, section: dict[str, object], config_path: Path | None, args: argparse.Namespace) -> int:
    import asyncio
    import logging

    from kikimimi.web.serve import WebError, WebServer, quiet_uvicorn, web_config
    from kikimimi.web.store import StoreError

    logging.basicConfig(level=logging.WARNING, format="kikimimi web: %(message)s")
    quiet_uvicorn()
    try:
        server = WebServer(web_config(journal, section, config_path=config_path, bind=args.bind,
                                      audience=args.audience))
    except (WebError, StoreError) as exc:
        raise CliError(str(exc)) from None
    print(f"kikimimi web: certificate SHA-256 fingerprint {server.fingerprint}", file=sys.stderr)

    def listening(urls: list[str]) -> None:
        for url in urls:
            what = "referee, owner and audience" if url.startswith("https:") else "audience (plain HTTP)"
            print(f"kikimimi web: {what} at {url}/", file=sys.stderr, flush=True)

    try:
        asyncio.run(server.serve(listening=listening))
    except WebError as exc:
        raise CliError(str(exc)) from None
    except KeyboardInterrupt:
        pass
    return 0
