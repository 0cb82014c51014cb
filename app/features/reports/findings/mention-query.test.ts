import { describe, expect, it } from 'vitest'
import { mentionStands } from '#domain/finding-comments.ts'
import { activeMention, insertMention } from './mention-query.ts'

const at = (text: string) => activeMention(text.replace('|', ''), text.indexOf('|'))

describe('activeMention', () => {
  it('reads the start of an address typed after "@" up to the caret, lower-cased', () => {
    expect(at('@|')).toEqual({ start: 0, query: '' })
    expect(at('Hi @Ma|')).toEqual({ start: 3, query: 'ma' })
    expect(at('cc (@mario@acme.ex|')).toEqual({ start: 4, query: 'mario@acme.ex' })
    expect(at('line\n@ana|')).toEqual({ start: 5, query: 'ana' })
  })

  it('is no mention inside a word or an address, after a space, or with the caret elsewhere', () => {
    expect(at('mail@acme|')).toBeNull()
    expect(at('@ana done|')).toBeNull()
    expect(at('|@ana')).toBeNull()
    expect(at('no mention|')).toBeNull()
  })
})

describe('insertMention', () => {
  const mario = { uid: 'u1', name: 'Mario Manager', email: 'manager@acme.example' }

  it("writes the person's @name and a space in place of what was typed, caret after it, the rest kept", () => {
    expect(insertMention('Hi @ma please', { start: 3, query: 'ma' }, 6, mario)).toEqual({
      text: 'Hi @Mario Manager please',
      caret: 18,
    })
    expect(insertMention('@man', { start: 0, query: 'man' }, 4, { ...mario, name: '' })).toEqual({
      text: '@manager@acme.example ',
      caret: 22,
    })
  })

  it('leaves a mention that stands while its name or address is in the text, in any case', () => {
    expect(mentionStands('thanks @mario manager!', mario)).toBe(true)
    expect(mentionStands('ask @manager@acme.example', mario)).toBe(true)
    expect(mentionStands('ask Mario Manager', mario)).toBe(false)
  })
})
