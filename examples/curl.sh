#!/bin/sh
# Kurs with curl: the latest rates, one pair, a bulk conversion and the key's balance (3 points).
# Usage: KURS_URL=http://127.0.0.1:8080 KURS_API_KEY=kurs_… sh examples/curl.sh
set -eu
: "${KURS_URL:=http://127.0.0.1:8080}"
: "${KURS_API_KEY:?set KURS_API_KEY to your key (kurs keys create --plan starter)}"
nl='
'

# One request, its answer printed. The key is the bare Authorization header: no "Bearer" prefix.
# An error answer (every one is the same envelope: code, error, message) ends the script with one
# line on stderr, the server's own explanation: a server that has not reached the banks' feeds yet
# answers 404 no_fresh_rate for a pair, saying how old its figures are and what to do.
call() {
  answer=$(curl -sS -w "$nl%{http_code}" -H "Authorization: $KURS_API_KEY" "$@") || {
    echo "cannot reach Kurs at $KURS_URL: is the server running (npm start)?" >&2
    exit 1
  }
  status=${answer##*"$nl"}
  body=${answer%"$nl"*}
  case $status in
    2??) printf '%s\n' "$body" ;;
    *)
      line=$(printf '%s\n' "$body" | sed -n 's/^{"code":[0-9]*,"message":"\([^"\\]*\(\\.[^"\\]*\)*\)","error":"\([a-z_]*\)".*$/\3: \1/p' | sed 's/\\"/"/g')
      echo "$status ${line:-$body}" >&2
      exit 1
      ;;
  esac
}

echo "# 1 EUR in every currency"
call "$KURS_URL/v1/EUR/latest"
echo "# 100 EUR in USD"
call "$KURS_URL/v1/rate/EUR/USD?amount=100"
echo "# 250 EUR into three currencies at once (XYZ is not a currency: it comes back in missing)"
call -H 'Content-Type: application/json' -d '{"base":"EUR","amount":250,"targets":["USD","GBP","XYZ"]}' "$KURS_URL/v1/rates/convert"
echo "# what is left on the key (free)"
call "$KURS_URL/v1/usage"
