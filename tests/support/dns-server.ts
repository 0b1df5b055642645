// A tiny authoritative DNS server for TXT records, so domain-verification tests never touch the machine's resolver.
// It answers over UDP (and over TCP on the same port, for an answer too long for a datagram): a TXT query for a known
// name gets its values, an unknown name gets NXDOMAIN, any other type of a known name an empty NOERROR. Answers carry
// TTL 0 and NXDOMAIN carries no SOA, so a resolver caches neither and a test may change a record at any time.
// Point a resolver at it with `resolver.setServers([`${host}:${port}`])` (or `dns.setServers` in the app's process).
// With a control port, a test in another process sets records over HTTP: POST /txt {"name","values"}, POST /clear.
import { createSocket, type Socket as DgramSocket, type RemoteInfo } from 'node:dgram'
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http'
import { type AddressInfo, createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net'

export interface DnsServer {
  /** 127.0.0.1 */
  host: string
  /** The UDP port (TCP is served on the same port). */
  port: number
  /** http://127.0.0.1:PORT, when a control port was asked for. */
  controlUrl?: string
  /** Sets the TXT records of a name (case-insensitive, no trailing dot needed); each value is one record. */
  setTxt(name: string, values: string[]): void
  clear(): void
  close(): Promise<void>
}

const HOST = '127.0.0.1'
const TYPE_TXT = 16
const TYPE_OPT = 41
const TYPE_ANY = 255
const CLASS_IN = 1
const RCODE = { noError: 0, formErr: 1, nxDomain: 3, notImp: 4 } as const
/** The UDP payload size this server offers in its own OPT record (the usual EDNS0 value). */
const EDNS_UDP_SIZE = 1232
const CLASSIC_UDP_SIZE = 512

const normalise = (name: string) => name.trim().replace(/\.+$/, '').toLowerCase()

interface Question {
  /** The question section exactly as sent (name, type, class), echoed in the answer. */
  raw: Buffer
  name: string
  type: number
}

interface Query {
  id: number
  /** The query's opcode and RD bit, kept in the answer. */
  flags: number
  question?: Question
  questionCount: number
  /** The UDP payload size the client's OPT record offers, if it sent one. */
  ednsSize?: number
}

/** Reads a name at `offset` (queries carry no compression pointers; one here is a format error). */
function readName(message: Buffer, offset: number): { name: string; end: number } | undefined {
  const labels: string[] = []
  let position = offset
  for (;;) {
    const length = message[position]
    if (length === undefined || (length & 0xc0) !== 0) return undefined
    position += 1
    if (length === 0) return { name: labels.join('.'), end: position }
    if (position + length > message.length) return undefined
    labels.push(message.toString('latin1', position, position + length))
    position += length
  }
}

/** Skips a resource record (name possibly compressed) and returns its type, class and end. */
function readRecordHeader(message: Buffer, offset: number) {
  let position = offset
  for (;;) {
    const length = message[position]
    if (length === undefined) return undefined
    if ((length & 0xc0) === 0xc0) {
      position += 2
      break
    }
    position += 1 + length
    if (length === 0) break
  }
  if (position + 10 > message.length) return undefined
  const type = message.readUInt16BE(position)
  const recordClass = message.readUInt16BE(position + 2)
  const dataLength = message.readUInt16BE(position + 8)
  const end = position + 10 + dataLength
  return end > message.length ? undefined : { type, recordClass, end }
}

function parseQuery(message: Buffer): Query | undefined {
  if (message.length < 12) return undefined
  const flags = message.readUInt16BE(2)
  if (flags & 0x8000) return undefined // a response, not a query
  const query: Query = {
    id: message.readUInt16BE(0),
    flags: flags & 0x7900, // opcode (bits 11-14) and RD
    questionCount: message.readUInt16BE(4),
  }
  if (query.questionCount !== 1) return query
  const name = readName(message, 12)
  if (!name || name.end + 4 > message.length) return query
  query.question = {
    raw: message.subarray(12, name.end + 4),
    name: normalise(name.name),
    type: message.readUInt16BE(name.end),
  }
  // Look for the client's OPT record among the remaining records (answer, authority, additional).
  let position = name.end + 4
  const records = message.readUInt16BE(6) + message.readUInt16BE(8) + message.readUInt16BE(10)
  for (let index = 0; index < records; index++) {
    const record = readRecordHeader(message, position)
    if (!record) break
    if (record.type === TYPE_OPT) query.ednsSize = Math.max(record.recordClass, CLASSIC_UDP_SIZE)
    position = record.end
  }
  return query
}

/** One TXT record's data: the value as character-strings of at most 255 bytes each. */
function txtData(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8')
  const parts: Buffer[] = []
  for (let offset = 0; offset === 0 || offset < bytes.length; offset += 255) {
    const chunk = bytes.subarray(offset, offset + 255)
    parts.push(Buffer.from([chunk.length]), chunk)
  }
  return Buffer.concat(parts)
}

function header(id: number, flags: number, counts: [number, number, number, number]) {
  const buffer = Buffer.alloc(12)
  buffer.writeUInt16BE(id, 0)
  buffer.writeUInt16BE(flags, 2)
  counts.forEach((count, index) => {
    buffer.writeUInt16BE(count, 4 + index * 2)
  })
  return buffer
}

function optRecord() {
  const record = Buffer.alloc(11)
  // Root name (0), TYPE OPT, CLASS = our UDP payload size, TTL 0 (extended rcode, version 0, no flags), no data.
  record.writeUInt16BE(TYPE_OPT, 1)
  record.writeUInt16BE(EDNS_UDP_SIZE, 3)
  return record
}

function answerRecord(value: string) {
  const data = txtData(value)
  const record = Buffer.alloc(12)
  record.writeUInt16BE(0xc00c, 0) // pointer to the question's name at offset 12
  record.writeUInt16BE(TYPE_TXT, 2)
  record.writeUInt16BE(CLASS_IN, 4)
  record.writeUInt32BE(0, 6) // TTL 0: never cached
  record.writeUInt16BE(data.length, 10)
  return Buffer.concat([record, data])
}

/**
 * The answer to a query. `limit` is the largest message the transport can carry: over UDP an answer beyond it is
 * sent truncated (TC set, no records), so the client asks again over TCP.
 */
function answer(query: Query, records: Map<string, string[]>, limit: number): Buffer {
  // QR, the query's opcode and RD, AA (this server is the authority for every name it knows).
  const flags = 0x8000 | query.flags | 0x0400
  const opt = query.ednsSize === undefined ? [] : [optRecord()]
  const reply = (rcode: number, question: Buffer[], answers: Buffer[], truncated = false) =>
    Buffer.concat([
      header(query.id, flags | (truncated ? 0x0200 : 0) | rcode, [question.length, answers.length, 0, opt.length]),
      ...question,
      ...answers,
      ...opt,
    ])
  const opcode = (query.flags >> 11) & 0x0f
  if (opcode !== 0) return reply(RCODE.notImp, query.question ? [query.question.raw] : [], [])
  if (!query.question) return reply(RCODE.formErr, [], [])
  const { raw, name, type } = query.question
  const values = records.get(name)
  if (!values) return reply(RCODE.nxDomain, [raw], [])
  const answers = type === TYPE_TXT || type === TYPE_ANY ? values.map(answerRecord) : []
  const full = reply(RCODE.noError, [raw], answers)
  return full.length <= limit ? full : reply(RCODE.noError, [raw], [], true)
}

function checkRecords(name: unknown, values: unknown): asserts values is string[] {
  if (typeof name !== 'string' || normalise(name) === '') throw new Error('name must be a non-empty string')
  if (!Array.isArray(values) || !values.every((value) => typeof value === 'string')) {
    throw new Error('values must be an array of strings')
  }
}

const listen = (server: TcpServer | HttpServer, port: number) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, HOST, () => {
      server.off('error', reject)
      resolve()
    })
  })

async function readJson(request: AsyncIterable<unknown>) {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  return text ? (JSON.parse(text) as unknown) : {}
}

/**
 * Starts the server on 127.0.0.1: UDP and TCP on one port (a free one unless given), and the control HTTP server
 * when `controlPort` is given (0 picks a free one).
 */
export async function startDnsServer(options: { port?: number; controlPort?: number } = {}): Promise<DnsServer> {
  const records = new Map<string, string[]>()
  const setTxt = (name: string, values: string[]) => {
    checkRecords(name, values)
    records.set(normalise(name), [...values])
  }
  const clear = () => records.clear()

  const answerUdp = (udp: DgramSocket) => (message: Buffer, remote: RemoteInfo) => {
    const query = parseQuery(message)
    if (!query) return
    udp.send(answer(query, records, query.ednsSize ?? CLASSIC_UDP_SIZE), remote.port, remote.address)
  }

  const connections = new Set<Socket>()
  const answerTcp = (socket: Socket) => {
    connections.add(socket)
    socket.on('close', () => connections.delete(socket))
    socket.on('error', () => socket.destroy())
    // Over TCP each message is preceded by its length (2 bytes).
    let pending = Buffer.alloc(0)
    socket.on('data', (data: Buffer) => {
      pending = Buffer.concat([pending, data])
      while (pending.length >= 2) {
        const length = pending.readUInt16BE(0)
        if (pending.length < 2 + length) break
        const query = parseQuery(pending.subarray(2, 2 + length))
        pending = pending.subarray(2 + length)
        if (!query) {
          socket.destroy()
          return
        }
        const reply = answer(query, records, 0xffff)
        const prefix = Buffer.alloc(2)
        prefix.writeUInt16BE(reply.length)
        socket.write(Buffer.concat([prefix, reply]))
      }
    })
  }

  /** UDP takes the port (a free one for 0); TCP then takes the same number. */
  async function openTransports(requestedPort: number) {
    const udp = createSocket('udp4')
    udp.on('message', answerUdp(udp))
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject)
      udp.bind(requestedPort, HOST, () => {
        udp.off('error', reject)
        resolve()
      })
    })
    const port = udp.address().port
    const tcp = createTcpServer(answerTcp)
    try {
      await listen(tcp, port)
    } catch (error) {
      await new Promise<void>((resolve) => udp.close(() => resolve()))
      throw error
    }
    return { udp, tcp, port }
  }

  let transports: Awaited<ReturnType<typeof openTransports>> | undefined
  for (let attempt = 1; !transports; attempt++) {
    try {
      transports = await openTransports(options.port ?? 0)
    } catch (error) {
      // A free UDP port whose TCP twin is taken: pick another, unless the port was asked for.
      if (options.port !== undefined || attempt >= 10) throw error
    }
  }
  const { udp, tcp, port } = transports

  const control =
    options.controlPort === undefined
      ? undefined
      : createHttpServer((request, response) => {
          const path = new URL(request.url ?? '/', 'http://control').pathname
          const done = (status: number, body?: string) =>
            response.writeHead(status, body ? { 'content-type': 'text/plain; charset=utf-8' } : {}).end(body)
          if (request.method !== 'POST' || (path !== '/txt' && path !== '/clear')) {
            request.resume()
            done(404, 'POST /txt {"name","values"} or POST /clear')
            return
          }
          if (path === '/clear') {
            request.resume()
            clear()
            done(204)
            return
          }
          readJson(request)
            .then((body) => {
              const { name, values } = (body ?? {}) as { name?: unknown; values?: unknown }
              checkRecords(name, values)
              setTxt(name as string, values)
              done(204)
            })
            .catch((error: unknown) => done(400, error instanceof Error ? error.message : String(error)))
        })
  let controlUrl: string | undefined
  if (control) {
    await listen(control, options.controlPort ?? 0)
    controlUrl = `http://${HOST}:${(control.address() as AddressInfo).port}`
  }

  return {
    host: HOST,
    port,
    ...(controlUrl ? { controlUrl } : {}),
    setTxt,
    clear,
    close: async () => {
      for (const socket of connections) socket.destroy()
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
        control
          ? new Promise<void>((resolve) => {
              control.closeAllConnections()
              control.close(() => resolve())
            })
          : undefined,
      ])
    },
  }
}
