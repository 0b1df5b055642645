import type { SVGProps } from 'react'

// lucide ships no brand marks; these are simple hand-drawn stand-ins, sized like lucide icons.

/** A cat's head, after GitHub's mascot; takes the text colour, so it works in both themes. */
export function GithubIcon(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" {...props}>
      <path
        fill="currentColor"
        d="M5 9.5V3.5l4.2 2.6a9.6 9.6 0 0 1 5.6 0L19 3.5v6c1.3 1.6 1.6 3.7.8 5.6C18.6 18 15.7 20 12 20s-6.6-2-7.8-4.9c-.8-1.9-.5-4 .8-5.6Z"
      />
      <circle cx="9" cy="13" r="1.2" className="fill-background" />
      <circle cx="15" cy="13" r="1.2" className="fill-background" />
    </svg>
  )
}

/** A "G" in four colours, after Google's mark. */
export function GoogleIcon(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" strokeWidth="3.5" {...props}>
      <path stroke="#4285F4" d="M12 12h7M19 12a7 7 0 0 1-2.05 4.95" />
      <path stroke="#34A853" d="M16.95 16.95a7 7 0 0 1-9.9 0" />
      <path stroke="#FBBC05" d="M7.05 16.95A7 7 0 0 1 5.94 8.5" />
      <path stroke="#EA4335" d="M5.94 8.5a7 7 0 0 1 11.42-1" />
    </svg>
  )
}
