/**
 * Bytes, in the parts they came in, as a string of one character each, as `toString('latin1')` makes
 * it. The services pass the native helper's (`NativeHelper.oneByteText`), which copies nothing where
 * the bytes are one part of 64 KB or more (the string holds them, and they never change once read)
 * and joins several into memory an earlier page held, and takes them: a buffer that holds nothing
 * else is left empty. A page's bytes are read once.
 */
export type OneByteText = (parts: readonly Uint8Array[]) => string;

/** Without the native helper: the parts copied together (one as it is), then into a string. */
export const copyAsLatin1: OneByteText = (parts) =>
  (parts.length === 1 ? Buffer.from(parts[0]!.buffer, parts[0]!.byteOffset, parts[0]!.byteLength) : Buffer.concat(parts)).toString('latin1');

/**
 * A page's chunks joined into one buffer of their own (`NativeHelper.joinedBytes`: memory an earlier
 * page held), to be moved to a parse thread; the chunks that are the whole of their buffer are left empty.
 */
export type JoinBytes = (parts: readonly Uint8Array[]) => ArrayBuffer;
