// Reads the members of a small ZIP archive held in memory (the ECB ships its CSVs zipped). Walks the
// local file headers only: enough for the archives the banks produce, and no dependency for it.
import { crc32, inflateRawSync } from 'node:zlib';
import { DEFAULT_FEED_MAX_BYTES } from './http.js';

export interface ZipEntry {
  name: string;
  data: Buffer;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIR = 0x06054b50;
const LOCAL_HEADER_SIZE = 30;
const FLAG_ENCRYPTED = 0x0001;
// Sizes then follow the data instead of preceding it, so a forward walk cannot find the member's end.
const FLAG_DATA_DESCRIPTOR = 0x0008;
const ZIP64_MARK = 0xffffffff;
const STORED = 0;
const DEFLATED = 8;

/** Every file member, in archive order. Throws on anything it cannot read exactly (truncation, CRC),
 *  and once the members together inflate past `maxBytes`: a zip bomb stops at the feed limit. */
export function unzip(zip: Buffer, maxBytes = DEFAULT_FEED_MAX_BYTES): ZipEntry[] {
  const entries: ZipEntry[] = [];
  let offset = 0;
  let total = 0;
  for (;;) {
    if (offset + 4 > zip.length) throw new Error('truncated archive: no central directory');
    const signature = zip.readUInt32LE(offset);
    if (signature === CENTRAL_HEADER || signature === END_OF_CENTRAL_DIR) break;
    if (signature !== LOCAL_HEADER) throw new Error(`not a ZIP local file header at byte ${offset}`);
    if (offset + LOCAL_HEADER_SIZE > zip.length) throw new Error('truncated local file header');

    const flags = zip.readUInt16LE(offset + 6);
    const method = zip.readUInt16LE(offset + 8);
    const crc = zip.readUInt32LE(offset + 14);
    const compressedSize = zip.readUInt32LE(offset + 18);
    const size = zip.readUInt32LE(offset + 22);
    const nameLength = zip.readUInt16LE(offset + 26);
    const extraLength = zip.readUInt16LE(offset + 28);
    const nameStart = offset + LOCAL_HEADER_SIZE;
    const dataStart = nameStart + nameLength + extraLength;
    const dataEnd = dataStart + compressedSize;
    const name = zip.toString('utf8', nameStart, nameStart + nameLength);

    if (flags & FLAG_ENCRYPTED) throw new Error(`${name}: encrypted members are not supported`);
    if (flags & FLAG_DATA_DESCRIPTOR) throw new Error(`${name}: members with a trailing data descriptor are not supported`);
    if (compressedSize === ZIP64_MARK || size === ZIP64_MARK) throw new Error(`${name}: ZIP64 members are not supported`);
    if (dataEnd > zip.length) throw new Error(`${name}: truncated (${zip.length - dataStart} of ${compressedSize} bytes)`);

    // The header's size is the writer's word only: inflation is cut at the limit whatever it says.
    if (total + size > maxBytes) throw tooLarge(name, maxBytes);
    const raw = zip.subarray(dataStart, dataEnd);
    let data: Buffer;
    if (method === STORED) data = Buffer.from(raw);
    else if (method === DEFLATED) data = inflate(raw, maxBytes - total, () => tooLarge(name, maxBytes));
    else throw new Error(`${name}: compression method ${method} is not supported`);
    if (data.length !== size) throw new Error(`${name}: inflated to ${data.length} bytes, header says ${size}`);
    if (crc32(data) !== crc) throw new Error(`${name}: CRC-32 mismatch`);

    total += data.length;
    if (!name.endsWith('/')) entries.push({ name, data });
    offset = dataEnd;
  }
  return entries;
}

const tooLarge = (name: string, maxBytes: number) => new Error(`${name}: inflates past the limit of ${maxBytes} bytes`);

function inflate(raw: Buffer, room: number, refuse: () => Error): Buffer {
  try {
    return inflateRawSync(raw, { maxOutputLength: Math.max(room, 1) });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw refuse();
    throw err;
  }
}
