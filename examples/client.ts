// Kurs from TypeScript with kurs-client: a price display that converts one amount into several
// currencies, polls the latest rates without paying for unchanged answers, and handles errors.
// Run: KURS_URL=http://127.0.0.1:8080 KURS_API_KEY=kurs_… npx tsx examples/client.ts
import { KursClient, KursError } from 'kurs-client';

const baseUrl = process.env.KURS_URL ?? 'http://127.0.0.1:8080';
const apiKey = process.env.KURS_API_KEY;
if (!apiKey) throw new Error('set KURS_API_KEY to your key');

// `etagCache`: a repeated GET whose answer has not changed is a free 304.
const kurs = new KursClient({ baseUrl, apiKey, etagCache: true });

const price = await kurs.convert('EUR', ['USD', 'GBP', 'JPY'], { amount: '49.90' });
for (const [currency, { converted }] of Object.entries(price.rates)) console.log(`49.90 EUR = ${converted} ${currency}`);

const first = await kurs.latest('EUR');
const again = await kurs.latest('EUR');
console.log(`latest EUR→USD ${(again.rates as Record<string, number>).USD}; unchanged on the second poll: ${JSON.stringify(first) === JSON.stringify(again)}`);

// `exact: true`: every number as its exact decimal text (large amounts keep every digit).
const exact = new KursClient({ baseUrl, apiKey, exact: true });
const big = await exact.rate('EUR', 'JPY', { amount: '999999999999.99' });
console.log(`999999999999.99 EUR = ${big.converted} JPY (exact)`);

try {
  await kurs.rate('EUR', 'XYZ');
} catch (err) {
  if (!(err instanceof KursError)) throw err;
  console.log(`refused: ${err.status} ${err.error}: ${err.message}`);
}

const usage = await kurs.usage();
console.log(`points left: ${usage.points}`);
