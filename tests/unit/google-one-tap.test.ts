import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startGoogleOneTap } from '#/features/auth/google-one-tap'

// Google's script cannot be reached here, so Google's part — `google.accounts.id` — is played by a stand-in that
// answers each prompt the way Google does; the one-tap client itself is the real one the sign-in page uses.
interface PromptNotification {
  isDismissedMoment?: () => boolean
  getDismissedReason?: () => string
  isSkippedMoment?: () => boolean
}
type PromptListener = (notification: PromptNotification) => void

const dismissed = (reason: string): PromptNotification => ({
  isDismissedMoment: () => true,
  getDismissedReason: () => reason,
})
const skipped: PromptNotification = { isSkippedMoment: () => true }

let answerPrompt: (listener: PromptListener) => void
const prompts: PromptListener[] = []

beforeEach(() => {
  prompts.length = 0
  vi.useFakeTimers()
  vi.stubGlobal('window', {
    document: {},
    // Google's script counts as loaded, so nothing is fetched from the network.
    googleScriptInitialized: true,
    google: {
      accounts: {
        id: {
          initialize: () => {},
          prompt: (listener: PromptListener) => {
            prompts.push(listener)
            answerPrompt(listener)
          },
        },
      },
    },
  })
})

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('Google one-tap on the sign-in page', () => {
  it('shows the prompt again after a dismissal, 1000 ms then doubling, 5 more times at most', async () => {
    answerPrompt = (listener) => listener(dismissed('flow_restarted'))
    const waits = vi.spyOn(globalThis, 'setTimeout')
    const running = startGoogleOneTap('client-id.apps.googleusercontent.com', () => {})
    await vi.runAllTimersAsync()
    await running
    expect(waits.mock.calls.map(([, delay]) => delay)).toEqual([1000, 2000, 4000, 8000, 16000])
    expect(prompts).toHaveLength(6)
  })

  it('does not ask again when the person closed the prompt', async () => {
    answerPrompt = (listener) => listener(dismissed('cancel_called'))
    await startGoogleOneTap('client-id.apps.googleusercontent.com', () => {})
    expect(prompts).toHaveLength(1)
  })

  it('warns, without an error, when a prompt is already in progress, and shows only one', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const error = vi.spyOn(console, 'error')
    answerPrompt = () => {} // Google keeps the prompt open until the person acts.
    const first = startGoogleOneTap('client-id.apps.googleusercontent.com', () => {})
    await vi.waitFor(() => expect(prompts).toHaveLength(1))
    await startGoogleOneTap('client-id.apps.googleusercontent.com', () => {})
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('already in progress'))
    expect(prompts).toHaveLength(1)

    prompts[0]?.(skipped)
    await first
    expect(error).not.toHaveBeenCalled()
  })
})
