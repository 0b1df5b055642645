import { describe, expect, it } from 'vitest'
import { isOnThisMachine, outboxNotice } from '#/server/email/outbox-notice'

const resetEmail = {
  to: 'ada@example.com',
  subject: 'Reset your Hatch password',
  text: 'Open https://hatch.example.com/api/auth/reset-password/tok_8Qz1?callbackURL=%2Fen%2Freset-password\nCode: 482913',
}

describe('an email kept in the outbox (SMTP_URL unset)', () => {
  it('on the developer’s own machine, the log shows the whole email so they can follow its link', () => {
    for (const appUrl of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']) {
      const notice = outboxNotice(resetEmail, appUrl, 42)
      expect(notice, appUrl).toContain('kept in the outbox for ada@example.com: "Reset your Hatch password"')
      expect(notice, appUrl).toContain('tok_8Qz1')
      expect(notice, appUrl).toContain('482913')
      expect(notice.split('\n')[1], 'the line after the subject says where to read it').toBe(
        `an app admin reads it in Console → System: ${appUrl}/console/system?email=42`,
      )
    }
  })

  it('on a public server, the log names the recipient and subject only: no link, token or code', () => {
    for (const appUrl of ['https://hatch.example.com', 'http://10.0.0.5:3000', 'https://localhost.example.com']) {
      const notice = outboxNotice(resetEmail, appUrl, 42)
      expect(notice, appUrl).toBe(
        '[email] SMTP_URL is not set; kept in the outbox for ada@example.com: "Reset your Hatch password"; ' +
          `an app admin reads it in Console → System: ${appUrl}/console/system?email=42`,
      )
      expect(notice).not.toContain('tok_8Qz1')
      expect(notice).not.toContain('482913')
    }
  })

  it('on a public server, a one-time code in the subject is not printed either', () => {
    const codeEmail = { to: 'ada@example.com', subject: '482913 is your Hatch sign-in code', text: '482913' }
    const notice = outboxNotice(codeEmail, 'https://hatch.example.com', 7)
    expect(notice).toBe(
      '[email] SMTP_URL is not set; kept in the outbox for ada@example.com: "•••••• is your Hatch sign-in code"; ' +
        'an app admin reads it in Console → System: https://hatch.example.com/console/system?email=7',
    )
    expect(
      outboxNotice({ ...codeEmail, subject: '482913 是你的 Hatch 登录验证码' }, 'https://hatch.example.com', 7),
    ).not.toContain('482913')
    expect(outboxNotice(codeEmail, 'http://localhost:3000', 7), 'on this machine it is shown').toContain(
      '482913 is your',
    )
  })

  it('counts only loopback names as this machine', () => {
    expect(isOnThisMachine('http://localhost')).toBe(true)
    expect(isOnThisMachine('http://LOCALHOST:8080/')).toBe(true)
    expect(isOnThisMachine('https://example.com/localhost')).toBe(false)
    expect(isOnThisMachine('http://127.0.0.2:3000')).toBe(false)
  })
})
