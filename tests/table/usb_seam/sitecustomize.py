"""Test-only (tests/table/test_box_of_parts.py puts this folder on PYTHONPATH): in every Python
child of the box whose environment names KIKIMIMI_TEST_USB, USB readers open through that socket
to the emulated reader the test holds (tests/support/usb_socket.py).  Nothing else changes:
the child runs the owner's command as written, with nfcpy's drivers and kikimimi's code."""
import os
import sys

if os.environ.get("KIKIMIMI_TEST_USB"):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # tests/
    from support.usb_socket import install

    install(os.environ["KIKIMIMI_TEST_USB"])
