// The part of `s3rver` (which ships no types) that tests/support/s3-server.ts uses.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net'

  export default class S3rver {
    constructor(options: {
      port: number
      address: string
      silent: boolean
      directory: string
      configureBuckets: { name: string; configs: unknown[] }[]
    })
    run(): Promise<AddressInfo>
    close(): Promise<void>
  }
}
