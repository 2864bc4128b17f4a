#!/usr/bin/env python3
"""Kurs from Python with the standard library only: a conversion, an error, and the balance (2 points).

Run: KURS_URL=http://127.0.0.1:8080 KURS_API_KEY=kurs_... python3 examples/python.py
"""
import json
import os
import sys
import urllib.error
import urllib.request
from decimal import Decimal

BASE_URL = os.environ.get("KURS_URL", "http://127.0.0.1:8080")
API_KEY = os.environ.get("KURS_API_KEY")


class KursError(Exception):
    """An answer that is not a success, as one line: the status and Kurs's own explanation."""


def call(path, body=None):
    """One request with the key as the bare Authorization header; numbers parsed as Decimal."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE_URL + path, data=data, headers={"Authorization": API_KEY})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read(), parse_float=Decimal)
    except urllib.error.HTTPError as err:
        error = json.loads(err.read())  # every error is the same envelope: code, message, error
        raise KursError(f"{error['code']} {error['error']}: {error['message']}") from None
    except urllib.error.URLError as err:
        raise KursError(f"cannot reach Kurs at {BASE_URL}: {err.reason} (is the server running? npm start)") from None


def main():
    # A server that has not reached the banks' feeds yet answers 404 no_fresh_rate here, saying how
    # old its figures are and what to do: main() stops and that line is printed.
    pair = call("/v1/rate/EUR/USD?amount=100")
    print(f"100 EUR = {pair['converted']} USD at {pair['rate']} (as of {pair['last_update']} UTC)")

    bulk = call("/v1/rates/convert", {"base": "EUR", "amount": "1250.50", "targets": ["GBP", "CHF", "XYZ"]})
    for currency, row in bulk["rates"].items():
        print(f"1250.50 EUR = {row['converted']} {currency}")
    print(f"missing: {', '.join(bulk['missing'])}")

    try:
        call("/v1/EUR/latest?amount=-1")
    except KursError as err:
        print(f"refused: {err}")

    print(f"points left: {call('/v1/usage')['points']}")


if __name__ == "__main__":
    if not API_KEY:
        sys.exit("set KURS_API_KEY to your key (the first start prints one; or kurs keys create --plan starter)")
    try:
        main()
    except KursError as err:
        sys.exit(str(err))  # the one line, on stderr, and exit status 1
