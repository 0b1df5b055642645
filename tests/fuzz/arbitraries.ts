// Inputs for the fuzz tests: values shaped by a procedure's own zod schema (so the cases reach the code behind the
// validation), mixed with hostile values of every type (so the validation itself is tried).
// zod-fast-check targets zod 3; this is a small mapper over the zod 4 kinds our inputs use, falling back to hostile
// values for any kind it does not know, so a new kind of schema is still fuzzed, only less precisely.
import fc from 'fast-check'
import type { z } from '#/lib/zod'

const megabyte = 1024 * 1024

/** Strings an attacker or an unlucky paste would send. */
export const hostileStrings: string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(64),
  '\u0001\u0002\u0003\u001b[31m\u007f',
  '\r\n\t\v\f',
  '\ud800',
  'x\udfffy',
  '\ufeff',
  '\u202e\u2066evil',
  '😀👨‍👩‍👧‍👦🏳️‍🌈',
  '书名：三体，作者：刘慈欣、',
  "' OR '1'='1' --",
  "'; drop table books; --",
  '1; select pg_sleep(1); --',
  '" union select * from "user" --',
  '%',
  '_',
  '\\',
  '$1',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection probe, sent as it is
  '{{7*7}}${7*7}',
  '../../../../etc/passwd',
  'C:\\Windows\\system32',
  '=HYPERLINK("http://evil.example")',
  '+1-2',
  '-1',
  '@SUM(A1)',
  'null',
  'undefined',
  'NaN',
  'true',
  '0',
  '-0',
  '1e309',
  '9'.repeat(400),
  '__proto__',
  'constructor',
  'prototype',
  'a'.repeat(10_000),
  '書'.repeat(100_000),
]

/** Cursors a client could forge: the list procedures take an opaque cursor string. */
export const forgedCursors: unknown[] = [
  'eyJpZCI6IjEiLCJ2YWx1ZSI6IngifQ',
  Buffer.from(JSON.stringify({ id: "1' or 1=1 --", value: null })).toString('base64url'),
  Buffer.from(JSON.stringify({ value: { $gt: '' }, id: ['a'] })).toString('base64'),
  Buffer.from('not json at all').toString('base64url'),
  '!!!not-base64!!!',
  `${'A'.repeat(5000)}==`,
  -1,
  Number.MAX_SAFE_INTEGER,
  { id: 'x', value: 'y' },
]

/** One string of a megabyte: generated once, then shared (it is the length that matters, not the letters). */
const oneMegabyte = 'A'.repeat(megabyte)
const oneMegabyteOfNul = '\u0000'.repeat(megabyte)

export const hostileNumbers: unknown[] = [
  0,
  -0,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  Number.MAX_SAFE_INTEGER + 2,
  Number.MIN_SAFE_INTEGER - 2,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 63,
  1e21,
  10n ** 30n,
  -(2n ** 64n),
  0n,
]

export const hostileDates: unknown[] = [
  new Date(8.64e15),
  new Date(-8.64e15),
  new Date(Number.NaN),
  new Date(0),
  new Date('0001-01-01T00:00:00Z'),
  new Date('9999-12-31T23:59:59Z'),
]

/** Objects with keys that pollute prototypes or confuse a merge. */
function pollutingObjects(): unknown[] {
  const withProto = JSON.parse('{"__proto__": {"isAdmin": true, "role": "admin"}, "id": "x"}') as unknown
  const withConstructor = { constructor: { prototype: { isAdmin: true } }, id: 'x' }
  return [withProto, withConstructor, Object.create(null) as object, { toString: 'x', valueOf: 1 }]
}

/** Nesting deep enough to exhaust a naive recursive reader. */
export function deeplyNested(depth: number): unknown {
  let value: unknown = 'bottom'
  for (let level = 0; level < depth; level += 1) value = level % 2 ? [value] : { a: value }
  return value
}

const hostileConstants: unknown[] = [
  ...hostileStrings,
  ...hostileNumbers,
  ...hostileDates,
  ...pollutingObjects(),
  ...forgedCursors,
  null,
  undefined,
  true,
  false,
  [],
  {},
  [null],
  new Map([['a', 1]]),
  new Set([1]),
  /x/g,
  deeplyNested(500),
  oneMegabyte,
  oneMegabyteOfNul,
]

/** Text of every kind: control characters, lone surrogates, emoji, CJK, the hostile strings. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...hostileStrings) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.string({ unit: fc.constantFrom('\u0000', '\ud800', '\udc00', '😀', '书', "'", '"'), maxLength: 20 }),
  },
)

/** Any value of any type, hostile ones most of the time. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...hostileConstants) },
  { weight: 2, arbitrary: hostileText },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 3, withBigInt: true, withDate: true, withNullPrototype: true }) },
)

/** A record key from any value (String() throws on an object without a prototype). */
function keyText(value: unknown): string {
  try {
    return String(value)
  } catch {
    return Object.prototype.toString.call(value)
  }
}

type Def = { type: string } & Record<string, unknown>
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def
type Check = { _zod: { def: { check: string } & Record<string, unknown> } }

/** A string within the schema's length and format checks. */
function stringFor(def: Def): fc.Arbitrary<string> {
  let minLength = 0
  let maxLength = 60
  let format: string | undefined
  let pattern: RegExp | undefined
  for (const check of (def.checks as Check[] | undefined) ?? []) {
    const checkDef = check._zod.def
    if (checkDef.check === 'min_length') minLength = checkDef.minimum as number
    if (checkDef.check === 'max_length') maxLength = Math.min(maxLength, checkDef.maximum as number)
    if (checkDef.check === 'length_equals') minLength = maxLength = checkDef.length as number
    if (checkDef.check === 'string_format') {
      format = checkDef.format as string
      if (format === 'regex') pattern = checkDef.pattern as RegExp
    }
  }
  if (format === 'email') return fc.emailAddress()
  if (format === 'uuid' || format === 'guid') return fc.uuid()
  if (format === 'url') return fc.webUrl()
  if (pattern) return fc.stringMatching(pattern)
  maxLength = Math.max(maxLength, minLength)
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ unit: 'grapheme', minLength, maxLength }),
    hostileText.filter((text) => text.length >= minLength && text.length <= maxLength),
  )
}

function numberFor(def: Def, integer: boolean): fc.Arbitrary<number> {
  let min = -1_000_000
  let max = 1_000_000
  for (const check of (def.checks as Check[] | undefined) ?? []) {
    const checkDef = check._zod.def
    if (checkDef.check === 'greater_than') min = Math.max(min, Number(checkDef.value))
    if (checkDef.check === 'less_than') max = Math.min(max, Number(checkDef.value))
    if (checkDef.check === 'number_format') integer = true
  }
  if (min > max) [min, max] = [max, min]
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true })
}

/**
 * Values the schema would mostly accept. `depth` stops recursive schemas; a wrapper that changes values
 * (preprocess, transform) is fuzzed by what it receives, its inner schema's shape, plus hostile values.
 */
export function validish(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema)
  if (depth > 6) return hostileValue
  const inner = (child: unknown) => validish(child, depth + 1)
  switch (def.type) {
    case 'string':
      return stringFor(def)
    case 'number':
      return numberFor(def, false)
    case 'int':
      return numberFor(def, true)
    case 'bigint':
      return fc.bigInt()
    case 'boolean':
      return fc.boolean()
    case 'date':
      return fc.date({ noInvalidDate: true })
    case 'null':
      return fc.constant(null)
    case 'undefined':
    case 'void':
      return fc.constant(undefined)
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]))
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>))
    case 'optional':
      return fc.option(inner(def.innerType), { nil: undefined })
    case 'nullable':
      return fc.option(inner(def.innerType), { nil: null })
    case 'default':
    case 'prefault':
      return fc.option(inner(def.innerType), { nil: undefined })
    case 'catch':
    case 'readonly':
    case 'nonoptional':
    case 'success':
      return inner(def.innerType)
    case 'lazy':
      return inner((def.getter as () => unknown)())
    case 'pipe':
      // A preprocess is a pipe from a transform: what it receives is best described by its output schema.
      return defOf(def.in).type === 'transform' ? inner(def.out) : inner(def.in)
    case 'transform':
      return hostileValue
    case 'array': {
      let maxLength = 5
      let minLength = 0
      for (const check of (def.checks as Check[] | undefined) ?? []) {
        const checkDef = check._zod.def
        if (checkDef.check === 'min_length') minLength = checkDef.minimum as number
        if (checkDef.check === 'max_length') maxLength = Math.min(maxLength, checkDef.maximum as number)
      }
      return fc.array(inner(def.element), { minLength, maxLength: Math.max(minLength, maxLength) })
    }
    case 'tuple':
      return fc.tuple(...(def.items as unknown[]).map(inner))
    case 'union':
      return fc.oneof(...(def.options as unknown[]).map(inner))
    case 'intersection':
      return inner(def.left)
    case 'record':
      return fc.dictionary(validish(def.keyType, depth + 1).map(keyText), inner(def.valueType), { maxKeys: 4 })
    case 'object': {
      const shape = def.shape as Record<string, unknown>
      const fields: Record<string, fc.Arbitrary<unknown>> = {}
      for (const [key, child] of Object.entries(shape)) fields[key] = inner(child)
      const optionalKeys = Object.entries(shape)
        .filter(([, child]) => ['optional', 'default', 'prefault'].includes(defOf(child).type))
        .map(([key]) => key)
      return fc.record(fields, {
        requiredKeys: Object.keys(shape).filter((key) => !optionalKeys.includes(key)),
      })
    }
    default:
      return hostileValue
  }
}

/**
 * The inputs for one procedure: schema-shaped values (some with one field swapped for a hostile value, some with
 * polluting keys added) and hostile values of any type. `schemas` are the procedure's `.input()`s, merged by tRPC.
 */
export function inputsFor(schemas: unknown[]): fc.Arbitrary<unknown> {
  if (schemas.length === 0) return fc.oneof(fc.constant(undefined), hostileValue)
  const shaped = fc.oneof(...schemas.map((schema) => validish(schema)))
  const withHostileField = fc.tuple(shaped, fc.string({ maxLength: 12 }), hostileValue).map(([value, key, bad]) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return bad
    const keys = Object.keys(value)
    const target = keys.length > 0 ? (keys[key.length % keys.length] as string) : key
    return { ...value, [target]: bad }
  })
  const withPollutingKey = shaped.map((value) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? { ...value, ...(JSON.parse('{"__proto__": {"admin": true}, "constructor": {"name": "x"}}') as object) }
      : value,
  )
  return fc.oneof(
    { weight: 4, arbitrary: shaped },
    { weight: 3, arbitrary: withHostileField },
    { weight: 1, arbitrary: withPollutingKey },
    { weight: 2, arbitrary: hostileValue },
  )
}

/** Bodies that are not valid superjson, or not JSON at all. */
export const malformedBodies: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    '{',
    'null',
    '[]',
    '"text"',
    '{"json":',
    '{"json":{"a":1},"meta":{"values":{"a":["Date"]}}}',
    '{"json":"x","meta":{"values":["bigint"]}}',
    '{"json":{"a":"1"},"meta":{"values":{"a":[["custom","nope"]]}}}',
    '{"json":{"__proto__":{"x":1}},"meta":{"values":{"__proto__.x":["undefined"]}}}',
    '{"json":{},"meta":{"referentialEqualities":{"a":["b.c.d"]}}}',
    '{"json":{"a":[]},"meta":{"values":{"a":["map"]}}}',
    '\u0000\u0000',
    '\ud800',
    `{"json":${'{"a":['.repeat(20_000)}1${']}'.repeat(20_000)}}`,
    `{"json":"${'x'.repeat(megabyte)}"}`,
    'a=1&b=2',
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.json({ maxDepth: 4 }),
)

/** Query strings that are not a valid `input=` of superjson. */
export const malformedQueries: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'input=',
    'input=%',
    'input=%E0%A4%A',
    'input=%00',
    'input={',
    'input=null',
    'input=%7B%22json%22%3A%7B%7D%2C%22meta%22%3A%7B%22values%22%3A%7B%22x%22%3A%5B%22regexp%22%5D%7D%7D%7D',
    'batch=1&input={"0":{"json":1},"1":"x"}',
    'batch=abc&input=[]',
    `input=${'x'.repeat(10_000)}`,
    'input=1&input=2',
  ),
  fc.string({ maxLength: 100 }).map((text) => `input=${encodeURIComponent(text)}`),
  fc.string({ unit: 'binary', maxLength: 60 }).map((text) => `input=${text}`),
)

export type ZodSchema = z.ZodType

/**
 * Percent-encoding that is not UTF-8, or not an escape at all: overlong forms, encoded surrogates, bytes UTF-8 never
 * uses, a sequence cut short, a lone continuation byte, `%` without two hex digits.
 */
export const undecodableEscapes: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '%C0%80',
    '%ED%A0%80',
    '%ED%BF%BF',
    '%F8%88%80%80%80',
    '%FF',
    '%FE',
    '%80',
    '%E0%A4%A',
    '%E0%A4',
    '%',
    '%g0',
    '%4',
  ),
  fc.integer({ min: 0x80, max: 0xbf }).map((byte) => `%${byte.toString(16).toUpperCase()}`),
  fc.integer({ min: 0xf5, max: 0xff }).map((byte) => `%${byte.toString(16)}`),
  fc.integer({ min: 0xc2, max: 0xf4 }).map((lead) => `%${lead.toString(16)}x`),
)

/** A percent-encoded control character (NUL the most common), which no page or file name holds. */
export const controlCharacterEscapes: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constant('%00') },
  {
    weight: 2,
    arbitrary: fc
      .oneof(fc.integer({ min: 0, max: 0x1f }), fc.constant(0x7f))
      .map((code) => `%${code.toString(16).padStart(2, '0')}`),
  },
)

/**
 * A route parameter as sent on the wire (already encoded) that cannot be read: plain text around an escape that is
 * not UTF-8 or a control character.
 */
export const unreadableParameters: fc.Arbitrary<string> = fc
  .tuple(
    fc.stringMatching(/^[a-z0-9-]{0,8}$/),
    fc.oneof(undecodableEscapes, controlCharacterEscapes),
    // Not a hex digit first: `%E0%A4%A` followed by `b` would be a whole, readable character.
    fc.stringMatching(/^([g-z-][a-z0-9-]{0,7})?$/),
  )
  .map((parts) => parts.join(''))

/** Sizes of a streamed body past `limit`: just past it, and up to a quarter more. */
export const sizesPast = (limit: number): fc.Arbitrary<number> =>
  fc.oneof(fc.constant(limit + 1), fc.integer({ min: limit + 1, max: limit + Math.floor(limit / 4) }))

/** Chunk sizes a client streams a body in (a few bytes to a socket's worth). */
export const chunkSizes: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(1024, 16 * 1024, 64 * 1024),
  fc.integer({ min: 100, max: 256 * 1024 }),
)

/** A fuzzed text as a path or query part: a lone surrogate (which encodeURIComponent refuses) becomes U+FFFD. */
export const encoded = (text: string) => encodeURIComponent(text.replace(/[\ud800-\udfff]/gu, '\ufffd'))
