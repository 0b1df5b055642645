// Debian's nginx, started for a test or a benchmark in a folder of its own: in front of app servers with the shipped
// deploy/nginx.conf, or serving files as the benchmark's independent ceiling. No path aliases: benchmarks run this
// file with Node's type stripping.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

export const nginxBinary = '/usr/sbin/nginx'

export interface Nginx {
  url: string
  /** The first lines of nginx's error log, for a failure message. */
  errors(): string
  stop(): Promise<void>
}

/**
 * deploy/nginx.conf as shipped, with only its addresses changed: nginx listens on `listenPort` and balances over
 * `serverPorts`. Throws when the shipped file no longer has the shape this relies on.
 */
export function shippedNginxSite(options: { listenPort: number; serverPorts: number[] }): string {
  const shipped = readFileSync(path.resolve(import.meta.dirname, '../../deploy/nginx.conf'), 'utf8')
  const upstreams = options.serverPorts
    .map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=2s;`)
    .join('\n')
  const site = shipped
    .replace(/(upstream hatch_app \{[\s\S]*?)(?:\s*server 127\.0\.0\.1:\d+ [^;]*;)+/, `$1\n${upstreams}`)
    .replace('listen 80;', `listen 127.0.0.1:${options.listenPort};`)
    .replace('server_name hatch.example.com;', 'server_name localhost;')
  if (!site.includes(upstreams) || !site.includes(`listen 127.0.0.1:${options.listenPort};`)) {
    throw new Error('deploy/nginx.conf changed shape: its upstream servers or its listen line were not found')
  }
  return site
}

/** A site that serves the files of `root` as they are, on `listenPort`. */
export function staticNginxSite(options: { listenPort: number; root: string }): string {
  return `server {
    listen 127.0.0.1:${options.listenPort};
    root ${options.root};
    default_type text/html;
    location / { }
}`
}

/**
 * Starts nginx in the foreground with `site` inside the minimal main configuration it needs, all of its files in
 * `folder`, and resolves once `readyPath` answers. `workers` is nginx's worker_processes ("auto": one per core).
 */
export async function startNginx(options: {
  folder: string
  site: string
  listenPort: number
  readyPath: string
  workers?: number | 'auto'
}): Promise<Nginx> {
  if (!existsSync(nginxBinary)) throw new Error(`${nginxBinary} is missing: apt-get install -y nginx-light`)
  const { folder } = options
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
    mkdirSync(path.join(folder, sub), { recursive: true })
  const config = `daemon off;
worker_processes ${options.workers ?? 1};
pid ${folder}/nginx.pid;
error_log ${folder}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${folder}/body;
  proxy_temp_path ${folder}/proxy;
  fastcgi_temp_path ${folder}/fastcgi;
  uwsgi_temp_path ${folder}/uwsgi;
  scgi_temp_path ${folder}/scgi;
${options.site}
}
`
  writeFileSync(path.join(folder, 'nginx.conf'), config)
  const child = spawn(nginxBinary, ['-c', path.join(folder, 'nginx.conf'), '-p', folder, '-e', `${folder}/error.log`], {
    stdio: 'ignore',
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://localhost:${options.listenPort}`
  const errors = () => {
    const log = path.join(folder, 'error.log')
    return existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(0, 12).join('\n') : ''
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT')
    await exited
  }
  for (let waited = 0; waited < 10_000; waited += 100) {
    if (child.exitCode !== null) throw new Error(`nginx exited with code ${child.exitCode}:\n${errors()}`)
    if ((await fetch(`${url}${options.readyPath}`).catch(() => undefined))?.ok) return { url, errors, stop }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await stop()
  throw new Error(`nginx did not answer ${options.readyPath} within 10 s:\n${errors()}`)
}
