// The NT hash (MD4 over the password's UTF-16LE code units). WebCrypto has no MD4, and the audit
// needs it in the browser to recover the case of a password that only its LM halves gave away.

const ORDER = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15],
  [0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15],
]
const SHIFTS = [
  [3, 7, 11, 19],
  [3, 5, 9, 13],
  [3, 9, 11, 15],
]

const rotl = (x: number, s: number) => (x << s) | (x >>> (32 - s))

/** MD4 (RFC 1320) of bytes, as lowercase hex. */
export function md4Hex(message: Uint8Array): string {
  const padded = new Uint8Array((((message.length + 8) >>> 6) + 1) * 64)
  padded.set(message)
  padded[message.length] = 0x80
  const view = new DataView(padded.buffer)
  view.setUint32(padded.length - 8, (message.length * 8) >>> 0, true)
  view.setUint32(padded.length - 4, Math.floor(message.length / 0x20000000), true)
  const h = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476]
  const x = new Array<number>(16)
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) x[i] = view.getUint32(block + i * 4, true)
    let [a, b, c, d] = h as [number, number, number, number]
    for (let i = 0; i < 48; i++) {
      const round = i >>> 4
      const f = round === 0 ? (b & c) | (~b & d) : round === 1 ? ((b & c) | (b & d) | (c & d)) + 0x5a827999 : (b ^ c ^ d) + 0x6ed9eba1
      const t = rotl((a + f + x[ORDER[round]![i & 15]!]!) | 0, SHIFTS[round]![i & 3]!)
      a = d
      d = c
      c = b
      b = t
    }
    h[0] = (h[0]! + a) | 0
    h[1] = (h[1]! + b) | 0
    h[2] = (h[2]! + c) | 0
    h[3] = (h[3]! + d) | 0
  }
  const out = new DataView(new ArrayBuffer(16))
  h.forEach((word, i) => out.setUint32(i * 4, word, true))
  return Array.from(new Uint8Array(out.buffer), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** The NT hash of a password, as lowercase hex. */
export function ntHash(password: string): string {
  const bytes = new Uint8Array(password.length * 2)
  for (let i = 0; i < password.length; i++) {
    const unit = password.charCodeAt(i)
    bytes[i * 2] = unit & 0xff
    bytes[i * 2 + 1] = unit >>> 8
  }
  return md4Hex(bytes)
}

/** The longest LM plaintext whose case is searched for (2^14 candidates at most). */
const MAX_CASE_LETTERS = 14

/**
 * The password whose NT hash is `nt`, among the case variants of an LM plaintext (LM upper-cases
 * before hashing), or null when none matches.
 */
export function recoverCase(lmPlaintext: string, nt: string): string | null {
  const chars = Array.from(lmPlaintext.toLowerCase())
  const letters = chars.flatMap((c, i) => (c.toUpperCase() !== c ? [i] : []))
  if (letters.length > MAX_CASE_LETTERS) return null
  const target = nt.toLowerCase()
  for (let mask = 0; mask < 1 << letters.length; mask++) {
    const candidate = chars.slice()
    letters.forEach((index, bit) => {
      if (mask & (1 << bit)) candidate[index] = candidate[index]!.toUpperCase()
    })
    const password = candidate.join('')
    if (ntHash(password) === target) return password
  }
  return null
}
