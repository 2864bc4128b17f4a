// Kurs from TypeScript with kurs-client: a price display that converts one amount into several
// currencies, polls the latest rates without paying for unchanged answers, and handles errors
// (3 points).
// Run: KURS_URL=http://127.0.0.1:8080 KURS_API_KEY=kurs_… npx tsx examples/client.ts
import { KursClient, KursError } from 'kurs-client';

const baseUrl = process.env.KURS_URL ?? 'http://127.0.0.1:8080';
const apiKey = process.env.KURS_API_KEY;

async function main(apiKey: string): Promise<void> {
  // `etagCache`: a repeated GET whose answer has not changed is a free 304.
  const kurs = new KursClient({ baseUrl, apiKey, etagCache: true });

  const price = await kurs.convert('EUR', ['USD', 'GBP', 'JPY'], { amount: '49.90' });
  // A server that has not reached the banks' feeds yet converts nothing (and charges nothing); its
  // message says how old its figures are and what to do.
  if (Object.keys(price.rates).length === 0) {
    console.error(`${price.message === 'success' ? 'no target converted' : price.message} (missing: ${price.missing.join(', ')})`);
    process.exitCode = 1;
    return;
  }
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
}

if (!apiKey) {
  console.error('set KURS_API_KEY to your key (the first start prints one; or kurs keys create --plan starter)');
  process.exitCode = 1;
} else {
  // Any other refusal (404 no_fresh_rate, 401, 402 …) or an unreachable server: one line, exit 1.
  await main(apiKey).catch((err: unknown) => {
    if (!(err instanceof KursError)) throw err;
    console.error(err.status === 0 ? `${err.message} (is the server running? npm start)` : `${err.status} ${err.error}: ${err.message}`);
    process.exitCode = 1;
  });
}
