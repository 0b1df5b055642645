// A TCP proxy a test puts between the app and a server (PostgreSQL, SMTP) to cut, refuse or stall the connection
// without touching the server itself, which other tests share. No path aliases: plain Node can run it.
import net from 'node:net'

export type ProxyMode = 'forward' | 'refuse' | 'stall'

export interface TcpProxy {
  port: number
  /** forward: pass bytes through; refuse: close new connections at once; stall: accept them and never answer. */
  setMode(mode: ProxyMode): void
  /** Drops every open connection (both sides), as a network failure or a server restart would. */
  cutAll(): void
  /** How many connections are open through the proxy now. */
  openConnections(): number
  close(): Promise<void>
}

export async function startTcpProxy(options: {
  port: number
  target: { host: string; port: number }
}): Promise<TcpProxy> {
  let mode: ProxyMode = 'forward'
  const sockets = new Set<net.Socket>()
  const track = (socket: net.Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
  }
  const server = net.createServer((client) => {
    track(client)
    if (mode === 'refuse') {
      client.destroy()
      return
    }
    if (mode === 'stall') return
    const upstream = net.connect(options.target.port, options.target.host)
    track(upstream)
    client.pipe(upstream)
    upstream.pipe(client)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, '127.0.0.1', () => resolve())
  })
  const cutAll = () => {
    for (const socket of sockets) socket.destroy()
    sockets.clear()
  }
  return {
    port: options.port,
    setMode: (next) => {
      mode = next
    },
    cutAll,
    openConnections: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        cutAll()
        server.close(() => resolve())
      }),
  }
}
