import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeOpenAi, fakeEmbedding, startFakeOpenAi } from '../support/fake-openai'

let fake: FakeOpenAi

beforeAll(async () => {
  fake = await startFakeOpenAi()
})
afterAll(() => fake.close())
beforeEach(() => fake.reset())

const post = (path: string, body: unknown, server = fake, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

/** The `data:` payloads of an SSE body, parsed unless they are [DONE]. */
function events(body: string) {
  expect(body.endsWith('\n\n')).toBe(true)
  return body
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      expect(block.startsWith('data: ')).toBe(true)
      const data = block.slice('data: '.length)
      return data === '[DONE]' ? data : JSON.parse(data)
    })
}

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, index) => sum + value * (b[index] ?? 0), 0)

async function embed(input: string | string[]): Promise<number[][]> {
  const response = await post('/embeddings', { model: 'fake-embedder', input })
  expect(response.status).toBe(200)
  const body = await response.json()
  expect(body.object).toBe('list')
  expect(body.model).toBe('fake-embedder')
  return body.data.map((item: { index: number; embedding: number[] }, index: number) => {
    expect(item.index).toBe(index)
    return item.embedding
  })
}

describe('fake OpenAI chat completions', () => {
  it('streams scripted text as several chunks that re-join exactly, then usage and [DONE]', async () => {
    const text = 'Ada Lovelace was invited by  G. M. B. Hopper.\nShe joined in 1843.'
    fake.script({ match: 'LOVELACE', turns: [{ text }] })
    const response = await post('/chat/completions', {
      model: 'test-model',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'You answer questions about members.' },
        { role: 'user', content: [{ type: 'text', text: 'Who invited Ada Lovelace?' }] },
      ],
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const all = events(await response.text())
    expect(all.at(-1)).toBe('[DONE]')
    const chunks = all.slice(0, -1)
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({ object: 'chat.completion.chunk', model: 'test-model', id: chunks[0].id })
    }
    const deltas = chunks.filter((chunk) => chunk.choices[0]?.delta.content !== undefined)
    expect(deltas.length).toBeGreaterThan(5)
    expect(deltas[0].choices[0].delta.role).toBe('assistant')
    expect(deltas.map((chunk) => chunk.choices[0].delta.content).join('')).toBe(text)
    const finish = chunks.at(-2)
    expect(finish.choices[0].finish_reason).toBe('stop')
    const usage = chunks.at(-1)
    expect(usage.choices).toEqual([])
    // Prompt: 5 system words + 4 user words; completion: one token per chunk.
    expect(usage.usage).toEqual({ prompt_tokens: 9, completion_tokens: deltas.length, total_tokens: 9 + deltas.length })
    expect(fake.chatRequests).toHaveLength(1)
    expect(fake.chatRequests[0]).toMatchObject({ model: 'test-model', stream: true, tools: [] })
  })

  it('asks for a tool, then answers after the tool message', async () => {
    fake.script(
      { match: 'lovelace', turns: [{ text: 'This rule is older and loses.' }] },
      {
        match: 'members named lovelace',
        turns: [
          { toolCalls: [{ name: 'search_members', arguments: { name: 'Lovelace', limit: 3 } }] },
          { text: 'You have Ada Lovelace.' },
        ],
      },
    )
    const tools = [
      { type: 'function', function: { name: 'search_members', parameters: { type: 'object' } } },
      { type: 'function', function: { name: 'invite_member', parameters: { type: 'object' } } },
    ]
    const user = { role: 'user', content: 'Which members named Lovelace do we have?' }
    const first = await post('/chat/completions', { model: 'm', stream: true, tools, messages: [user] })
    const chunks = events(await first.text()).slice(0, -1)
    const calls = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? [])
    expect(calls).toEqual([
      {
        index: 0,
        id: expect.stringMatching(/^call_/),
        type: 'function',
        function: { name: 'search_members', arguments: '{"name":"Lovelace","limit":3}' },
      },
    ])
    expect(chunks.some((chunk) => chunk.choices[0]?.delta.content)).toBe(false)
    expect(chunks.find((chunk) => chunk.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe('tool_calls')
    expect(fake.chatRequests[0]?.tools).toEqual(['search_members', 'invite_member'])

    const second = await post('/chat/completions', {
      model: 'm',
      tools,
      messages: [
        user,
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: calls[0].id, type: 'function', function: calls[0].function }],
        },
        { role: 'tool', tool_call_id: calls[0].id, content: '[{"name":"Ada Lovelace"}]' },
      ],
    })
    const completion = await second.json()
    expect(completion.object).toBe('chat.completion')
    expect(completion.choices[0]).toMatchObject({
      message: { role: 'assistant', content: 'You have Ada Lovelace.' },
      finish_reason: 'stop',
    })
    expect(completion.choices[0].message.tool_calls).toBeUndefined()
    expect(completion.usage.completion_tokens).toBe(4)
    expect(fake.chatRequests.map((request) => request.stream)).toEqual([true, false])
  })

  it('repeats the last turn, and answers whole with tool calls when not streaming', async () => {
    fake.script({ match: 'lookup', turns: [{ toolCalls: [{ name: 'lookup', arguments: { email: 'a' } }] }] })
    const messages = [
      { role: 'user', content: 'lookup please' },
      { role: 'assistant', content: 'x' },
      { role: 'tool', content: 'y' },
    ]
    const completion = await (await post('/chat/completions', { model: 'm', messages })).json()
    expect(completion.choices[0].finish_reason).toBe('tool_calls')
    expect(completion.choices[0].message.content).toBeNull()
    expect(completion.choices[0].message.tool_calls[0].function).toEqual({ name: 'lookup', arguments: '{"email":"a"}' })
  })

  it('echoes the last user message when no rule matches', async () => {
    fake.script({ match: 'something else', turns: [{ text: 'Not this.' }] })
    const completion = await (
      await post('/chat/completions', {
        model: 'm',
        messages: [
          { role: 'user', content: 'first question' },
          { role: 'assistant', content: 'first answer' },
          { role: 'user', content: 'Hello there' },
        ],
      })
    ).json()
    expect(completion.choices[0].message.content).toBe('Echo: Hello there')
    expect(completion.usage).toEqual({ prompt_tokens: 6, completion_tokens: 3, total_tokens: 9 })
  })

  it('answers a scripted failure with its status and an OpenAI error body', async () => {
    fake.script({ match: 'overload', turns: [{ fail: { status: 429, message: 'Rate limit reached' } }] })
    const response = await post('/chat/completions', {
      model: 'm',
      stream: true,
      messages: [{ role: 'user', content: 'overload me' }],
    })
    expect(response.status).toBe(429)
    const body = await response.json()
    expect(body.error).toMatchObject({ message: 'Rate limit reached', type: expect.any(String) })
    expect(body.error).toHaveProperty('code')
  })

  it('dies mid-answer after dropAfterChunks chunks, and survives a client that leaves mid-stream', async () => {
    fake.script(
      { match: 'drop', turns: [{ text: 'one two three four five', dropAfterChunks: 2 }] },
      { match: 'slow', turns: [{ text: 'a b c d e f g h i j k l m n o p', chunkDelayMs: 30 }] },
    )
    const dropped = await post('/chat/completions', {
      model: 'm',
      stream: true,
      messages: [{ role: 'user', content: 'drop' }],
    })
    expect(dropped.status).toBe(200)
    const reader = dropped.body?.getReader()
    let received = ''
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = (await reader?.read()) ?? { done: true, value: undefined }
          if (done) return
          received += new TextDecoder().decode(value)
        }
      })(),
    ).rejects.toThrow()
    expect(received).toContain('"content":"one "')
    expect(received).toContain('"content":"two "')
    expect(received).not.toContain('three')
    expect(received).not.toContain('[DONE]')

    const stop = new AbortController()
    const slow = await fetch(`${fake.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'slow' }] }),
      signal: stop.signal,
    })
    const slowReader = slow.body?.getReader()
    const firstChunk = new TextDecoder().decode((await slowReader?.read())?.value)
    expect(firstChunk).toContain('"content":"a "')
    stop.abort()
    await new Promise((resolve) => setTimeout(resolve, 100))
    // The server still answers afterwards.
    const after = await (
      await post('/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'hi' }] })
    ).json()
    expect(after.choices[0].message.content).toBe('Echo: hi')
  })

  it('lists its model and answers unknown paths with 404 JSON', async () => {
    const models = await (await fetch(`${fake.url}/models`)).json()
    expect(models.data.map((model: { id: string }) => model.id)).toEqual(['fake-model'])
    const missing = await fetch(`${fake.url}/completions`, { method: 'POST', body: '{}' })
    expect(missing.status).toBe(404)
    expect((await missing.json()).error.message).toMatch(/completions/)
  })
})

describe('fake OpenAI embeddings', () => {
  it('are deterministic, normalised, and close for texts sharing words', async () => {
    const [query, related, unrelated, again] = await embed([
      'invite members by email',
      'An email invites new members by a link',
      'Quarterly revenue grew in the eastern sales region',
      'invite members by email',
    ])
    if (!query || !related || !unrelated || !again) throw new Error('four embeddings expected')
    expect(query).toHaveLength(256)
    expect(again).toEqual(query)
    expect(await embed('Invite MEMBERS by Email!')).toEqual([query])
    for (const vector of [query, related, unrelated]) expect(Math.hypot(...vector)).toBeCloseTo(1, 10)
    expect(cosine(query, related)).toBeGreaterThan(0.3)
    expect(cosine(query, related)).toBeGreaterThan(cosine(query, unrelated) + 0.2)
    expect(fake.embeddingRequests).toEqual([
      {
        model: 'fake-embedder',
        input: ['invite members by email', expect.any(String), expect.any(String), expect.any(String)],
      },
      { model: 'fake-embedder', input: ['Invite MEMBERS by Email!'] },
    ])
  })

  it('match Chinese text by its characters and character pairs', async () => {
    const [query, related, unrelated] = await embed([
      '机器学习',
      '机器学习是人工智能的一个分支',
      '今天天气很好，我们去公园散步',
    ])
    if (!query || !related || !unrelated) throw new Error('three embeddings expected')
    expect(Math.hypot(...related)).toBeCloseTo(1, 10)
    expect(cosine(query, related)).toBeGreaterThan(0.3)
    expect(cosine(query, related)).toBeGreaterThan(cosine(query, unrelated) + 0.2)
    expect(fakeEmbedding('机器学习')).toEqual(query)
    // Pairs of adjacent characters make the order count: the same characters the other way round are not the same text.
    expect(cosine(query, fakeEmbedding('学习机器'))).toBeLessThan(0.9)
  })
})

describe('fake OpenAI API key and control endpoints', () => {
  it('refuses requests without the API key when one is set', async () => {
    const guarded = await startFakeOpenAi({ apiKey: 'sk-test-key' })
    try {
      const chat = { model: 'm', messages: [{ role: 'user', content: 'hi' }] }
      const none = await post('/chat/completions', chat, guarded)
      expect(none.status).toBe(401)
      expect((await none.json()).error.code).toBe('invalid_api_key')
      const wrong = await post('/chat/completions', chat, guarded, { authorization: 'Bearer sk-other' })
      expect(wrong.status).toBe(401)
      expect((await fetch(`${guarded.url}/models`)).status).toBe(401)
      const right = await post('/chat/completions', chat, guarded, { authorization: 'Bearer sk-test-key' })
      expect(right.status).toBe(200)
      expect(guarded.chatRequests).toHaveLength(1)
    } finally {
      await guarded.close()
    }
  })

  it('takes rules over HTTP, reports requests, and resets', async () => {
    const origin = fake.url.replace(/\/v1$/, '')
    const scripted = await fetch(`${origin}/__script`, {
      method: 'POST',
      body: JSON.stringify({ rules: [{ match: 'ping', turns: [{ text: 'pong' }] }] }),
    })
    expect(scripted.status).toBe(200)
    const ask = () => post('/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'Ping?' }] })
    expect((await (await ask()).json()).choices[0].message.content).toBe('pong')
    await embed('hello')
    const recorded = await (await fetch(`${origin}/__requests`)).json()
    expect(recorded.chatRequests).toHaveLength(1)
    expect(recorded.chatRequests[0].messages).toEqual([{ role: 'user', content: 'Ping?' }])
    expect(recorded.embeddingRequests).toEqual([{ model: 'fake-embedder', input: ['hello'] }])

    expect((await fetch(`${origin}/__reset`, { method: 'POST' })).status).toBe(200)
    expect(fake.chatRequests).toHaveLength(0)
    expect((await (await ask()).json()).choices[0].message.content).toBe('Echo: Ping?')
    expect((await fetch(`${origin}/__script`, { method: 'POST', body: '{"rules":"no"}' })).status).toBe(400)
  })
})
