#!/usr/bin/env python3
"""Kurs from Python with the standard library only: a conversion, an error, and the balance.

Run: KURS_URL=http://127.0.0.1:8080 KURS_API_KEY=kurs_... python3 examples/python.py
"""
import json
import os
import urllib.error
import urllib.request
from decimal import Decimal

BASE_URL = os.environ.get("KURS_URL", "http://127.0.0.1:8080")
API_KEY = os.environ["KURS_API_KEY"]


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
        raise RuntimeError(f"{error['code']} {error['error']}: {error['message']}") from None


pair = call("/v1/rate/EUR/USD?amount=100")
print(f"100 EUR = {pair['converted']} USD at {pair['rate']} (as of {pair['last_update']} UTC)")

bulk = call("/v1/rates/convert", {"base": "EUR", "amount": "1250.50", "targets": ["GBP", "CHF", "XYZ"]})
for currency, row in bulk["rates"].items():
    print(f"1250.50 EUR = {row['converted']} {currency}")
print(f"missing: {', '.join(bulk['missing'])}")

try:
    call("/v1/EUR/latest?amount=-1")
except RuntimeError as err:
    print(f"refused: {err}")

print(f"points left: {call('/v1/usage')['points']}")
