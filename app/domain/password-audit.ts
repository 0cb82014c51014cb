// What the password audit keeps of a cracked password (DPAT's figures): a masked form, its length,
// its character classes and pattern tags. The plaintext is only read here, never stored or
// returned: callers drop it as soon as `describePassword` has run.

export const CHARACTER_CLASSES = ['lower', 'upper', 'digit', 'symbol'] as const
export type CharacterClass = (typeof CHARACTER_CLASSES)[number]

export const PASSWORD_PATTERNS = ['season_year', 'company_name', 'keyboard_walk', 'word_digits', 'username'] as const
export type PasswordPattern = (typeof PASSWORD_PATTERNS)[number]

export const passwordPatternLabels: Record<PasswordPattern, string> = {
  season_year: 'Season and year',
  company_name: 'Company name',
  keyboard_walk: 'Keyboard walk',
  word_digits: 'Word and digits',
  username: 'Username as password',
}

/** Shorter than this, a password is masked whole: showing three characters would give most of it away. */
export const MASK_MIN_LENGTH = 8

const FULL_MASK = '********'

/**
 * `S*****24`: the first character, five stars whatever the length (the length is reported
 * separately) and the last two; short passwords are all stars.
 */
export function maskPassword(password: string): string {
  const chars = Array.from(password)
  if (chars.length < MASK_MIN_LENGTH) return FULL_MASK
  return `${chars[0]}*****${chars.slice(-2).join('')}`
}

export function characterClasses(password: string): CharacterClass[] {
  const found = new Set<CharacterClass>()
  for (const char of password) {
    if (/\p{Ll}/u.test(char)) found.add('lower')
    else if (/\p{Lu}/u.test(char)) found.add('upper')
    else if (/\p{Nd}/u.test(char)) found.add('digit')
    else found.add('symbol')
  }
  return CHARACTER_CLASSES.filter((c) => found.has(c))
}

const SEASONS = ['spring', 'summer', 'autumn', 'fall', 'winter', 'fruehling', 'sommer', 'herbst']
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']

// Rows of a QWERTY keyboard (and the digit row), forwards; walks are read either way.
const KEY_ROWS = ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm', 'qwertzuiop', 'yxcvbnm', '1qaz2wsx3edc4rfv', 'zaq1xsw2cde3']

// Common substitutions, so "P@ssw0rd" and "Acm3" read as words.
const LEET: Record<string, string> = { '@': 'a', '4': 'a', '3': 'e', '1': 'i', '!': 'i', '0': 'o', $: 's', '5': 's', '7': 't' }
const unleet = (text: string) => Array.from(text, (c) => LEET[c] ?? c).join('')

function hasKeyboardWalk(lowered: string): boolean {
  const letters = lowered.replace(/[^a-z0-9]/g, '')
  for (const row of KEY_ROWS) {
    for (const line of [row, Array.from(row).reverse().join('')]) {
      for (let start = 0; start + 4 <= line.length; start++) if (letters.includes(line.slice(start, start + 4))) return true
    }
  }
  return false
}

export interface PasswordContext {
  /** The account's name (sAMAccountName), to spot a password made of it. */
  username?: string
  /** The company's names and brands (lower or any case). */
  companyNames?: readonly string[]
}

export function passwordPatterns(password: string, context: PasswordContext = {}): PasswordPattern[] {
  const lowered = password.toLowerCase()
  const plain = unleet(lowered)
  const found = new Set<PasswordPattern>()
  const year = /(19|20)\d{2}|\d{2}$/
  if ([...SEASONS, ...MONTHS].some((s) => plain.includes(s)) && year.test(lowered)) found.add('season_year')
  for (const name of context.companyNames ?? []) {
    const n = name.trim().toLowerCase()
    if (n.length >= 3 && plain.includes(n)) found.add('company_name')
  }
  if (hasKeyboardWalk(lowered)) found.add('keyboard_walk')
  if (/^\p{L}{3,}[^\p{L}\p{Nd}]?\d{1,4}[^\p{L}\p{Nd}]{0,2}$/u.test(password)) found.add('word_digits')
  const user = context.username?.trim().toLowerCase() ?? ''
  if (user.length >= 3) {
    const bare = user.includes('\\') ? user.slice(user.lastIndexOf('\\') + 1) : user
    if (plain.includes(unleet(bare)) || lowered.includes(bare)) found.add('username')
  }
  return PASSWORD_PATTERNS.filter((p) => found.has(p))
}

/** All the audit keeps of a cracked password. */
export interface PasswordDescription {
  masked: string
  length: number
  classes: CharacterClass[]
  patterns: PasswordPattern[]
}

export function describePassword(password: string, context: PasswordContext = {}): PasswordDescription {
  return {
    masked: maskPassword(password),
    length: Array.from(password).length,
    classes: characterClasses(password),
    patterns: passwordPatterns(password, context),
  }
}
