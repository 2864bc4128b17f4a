// Reads the members of a small ZIP archive held in memory (the ECB ships its CSVs zipped). Walks the
// local file headers only: enough for the archives the banks produce, and no dependency for it.
import { crc32, inflateRawSync } from 'node:zlib';

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

/** Every file member, in archive order. Throws on anything it cannot read exactly (truncation, CRC). */
export function unzip(zip: Buffer): ZipEntry[] {
  const entries: ZipEntry[] = [];
  let offset = 0;
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

    const raw = zip.subarray(dataStart, dataEnd);
    let data: Buffer;
    if (method === STORED) data = Buffer.from(raw);
    else if (method === DEFLATED) data = inflateRawSync(raw);
    else throw new Error(`${name}: compression method ${method} is not supported`);
    if (data.length !== size) throw new Error(`${name}: inflated to ${data.length} bytes, header says ${size}`);
    if (crc32(data) !== crc) throw new Error(`${name}: CRC-32 mismatch`);

    if (!name.endsWith('/')) entries.push({ name, data });
    offset = dataEnd;
  }
  return entries;
}
