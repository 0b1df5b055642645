// A local temporary link (`/api/files/{key}?expires=…&name=…&signature=…`) has one spelling: the one this server
// wrote. Any other spelling of the same expiry, or a parameter given twice, is not a link of ours.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answerFileRequest } from '#/features/uploads/server/file-answers'
import { fileLinkSecret, useFileStorage } from '#/server/files/configured-storage'
import { type FileStorage, signFileLink } from '#/server/files/storage'

const key = 'organizations/o/books/b/f/file'
const expires = Math.floor(Date.now() / 1000) + 300

/** A storage holding one file, so an accepted link is answered 200 and a refused one 403. */
const oneFile: FileStorage = {
  kind: 'local',
  put: async () => undefined,
  get: async (wanted) =>
    wanted === key ? { body: new TextEncoder().encode('%PDF-1.7'), contentType: 'application/pdf' } : null,
  delete: async () => undefined,
  deletePrefix: async () => 0,
  keys: async function* () {
    yield key
  },
  temporaryUrl: async () => '',
}

/** Whether the server serves the file for `query`. */
const accepted = async (query: string) => {
  const answer = await answerFileRequest(new Request(`http://localhost:3000/api/files/${key}?${query}`), key)
  expect([200, 403], query).toContain(answer.status)
  return answer.status === 200
}

beforeAll(() => useFileStorage(oneFile))
afterAll(() => useFileStorage(undefined))

describe('signed file links', () => {
  const signature = signFileLink(fileLinkSecret(), key, expires, 'report.pdf')
  const name = encodeURIComponent('report.pdf')

  it('accepts the link as the server wrote it', async () => {
    expect(await accepted(`expires=${expires}&name=${name}&signature=${signature}`)).toBe(true)
    const inline = signFileLink(fileLinkSecret(), key, expires)
    expect(await accepted(`expires=${expires}&signature=${inline}`)).toBe(true)
  })

  it('refuses any other spelling of the signed expiry', async () => {
    const hex = `0x${expires.toString(16)}`
    for (const spelled of [hex, `${expires}.0`, ` ${expires}`, `+${expires}`, `0${expires}`, `${expires}e0`, '']) {
      expect(
        await accepted(`expires=${encodeURIComponent(spelled)}&name=${name}&signature=${signature}`),
        spelled,
      ).toBe(false)
    }
  })

  it('refuses a parameter given twice, whichever copy is genuine', async () => {
    const later = expires + 86_400
    for (const query of [
      `expires=${expires}&expires=${later}&name=${name}&signature=${signature}`,
      `expires=${later}&expires=${expires}&name=${name}&signature=${signature}`,
      `expires=${expires}&name=${name}&name=other.html&signature=${signature}`,
      `expires=${expires}&name=${name}&signature=${signature}&signature=${signature}`,
    ]) {
      expect(await accepted(query), query).toBe(false)
    }
  })

  it('property: a query is accepted only when it is exactly the canonical one', async () => {
    const canonical = `expires=${expires}&name=${name}&signature=${signature}`
    const expiresSpelling = fc.oneof(
      fc.constant(String(expires)),
      fc.constantFrom(`0x${expires.toString(16)}`, `${expires}.0`, `${expires}.`, `0${expires}`, `${expires} `),
      fc.integer({ min: 0, max: 2 ** 53 }).map(String),
    )
    const extra = fc.constantFrom('', `&expires=${expires}`, `&signature=${signature}`, `&name=${name}`)
    await fc.assert(
      fc.asyncProperty(expiresSpelling, extra, async (spelled, more) => {
        const query = `expires=${encodeURIComponent(spelled)}&name=${name}&signature=${signature}${more}`
        expect(await accepted(query), query).toBe(query === canonical)
      }),
    )
  })
})
