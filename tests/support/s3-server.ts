import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
// s3rver speaks the S3 protocol over HTTP (signatures and presigned-link expiry included), storing in a folder.
import S3rver from 's3rver'

/** An S3-compatible server for a test, with one bucket and s3rver's fixed credentials. */
export async function startTestS3Server(bucket = 'hatch-test') {
  const directory = mkdtempSync(path.join(tmpdir(), 'hatch-s3-'))
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  })
  const listening = (await server.run()) as AddressInfo
  return {
    settings: {
      bucket,
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${listening.port}`,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    },
    close: async () => {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
