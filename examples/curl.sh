#!/bin/sh
# Kurs with curl: the latest rates, one pair, a bulk conversion and the key's balance.
# Usage: KURS_URL=http://127.0.0.1:8080 KURS_API_KEY=kurs_… sh examples/curl.sh
set -eu
: "${KURS_URL:=http://127.0.0.1:8080}"
: "${KURS_API_KEY:?set KURS_API_KEY to your key (kurs keys create --plan starter)}"

# The key is the bare Authorization header: no "Bearer" prefix.
call() { curl -sS --fail-with-body -H "Authorization: $KURS_API_KEY" "$@"; echo; }

echo "# 1 EUR in every currency"
call "$KURS_URL/v1/EUR/latest"
echo "# 100 EUR in USD"
call "$KURS_URL/v1/rate/EUR/USD?amount=100"
echo "# 250 EUR into three currencies at once (XYZ is not a currency: it comes back in missing)"
call -H 'Content-Type: application/json' -d '{"base":"EUR","amount":250,"targets":["USD","GBP","XYZ"]}' "$KURS_URL/v1/rates/convert"
echo "# what is left on the key (free)"
call "$KURS_URL/v1/usage"
