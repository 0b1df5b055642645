import { useCallback, useEffect, useSyncExternalStore } from 'react'

export const themeChoices = ['light', 'dark', 'system'] as const
export type ThemeChoice = (typeof themeChoices)[number]

export const themeStorageKey = 'theme'
const changeEvent = 'hatch:theme-change'
const darkQuery = '(prefers-color-scheme: dark)'

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return typeof value === 'string' && (themeChoices as readonly string[]).includes(value)
}

/**
 * Runs inline in <head> before the first paint, so the page never flashes the wrong theme.
 * It repeats applyTheme's logic because it must be a self-contained string.
 */
export function themeBootScript(defaultTheme: ThemeChoice): string {
  return `(function(){try{var t=localStorage.getItem(${JSON.stringify(themeStorageKey)});if(t!=="light"&&t!=="dark"&&t!=="system")t=${JSON.stringify(defaultTheme)};var d=t==="dark"||(t==="system"&&matchMedia(${JSON.stringify(darkQuery)}).matches);var e=document.documentElement;e.classList.toggle("dark",d);e.classList.toggle("light",!d);e.style.colorScheme=d?"dark":"light";e.dataset.theme=t}catch(_){}})()`
}

function readStoredTheme(): ThemeChoice | null {
  try {
    const stored = localStorage.getItem(themeStorageKey)
    return isThemeChoice(stored) ? stored : null
  } catch {
    return null // storage disabled (private mode, blocked cookies)
  }
}

export function applyTheme(choice: ThemeChoice): void {
  const dark = choice === 'dark' || (choice === 'system' && window.matchMedia(darkQuery).matches)
  const root = document.documentElement
  root.classList.toggle('dark', dark)
  root.classList.toggle('light', !dark)
  root.style.colorScheme = dark ? 'dark' : 'light'
  root.dataset.theme = choice
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('storage', onChange)
  window.addEventListener(changeEvent, onChange)
  return () => {
    window.removeEventListener('storage', onChange)
    window.removeEventListener(changeEvent, onChange)
  }
}

/** The visitor's theme choice (stored in localStorage under `theme`), falling back to the site's default. */
export function useTheme(defaultTheme: ThemeChoice) {
  const theme = useSyncExternalStore(
    subscribe,
    () => readStoredTheme() ?? defaultTheme,
    () => defaultTheme,
  )

  const setTheme = useCallback((choice: ThemeChoice) => {
    try {
      localStorage.setItem(themeStorageKey, choice)
    } catch {
      // The choice still applies to this page view.
    }
    applyTheme(choice)
    window.dispatchEvent(new Event(changeEvent))
  }, [])

  // Re-apply when another tab changes the choice, and follow the OS live while "system" is chosen.
  useEffect(() => {
    applyTheme(theme)
    if (theme !== 'system') return
    const media = window.matchMedia(darkQuery)
    const follow = () => applyTheme('system')
    media.addEventListener('change', follow)
    return () => media.removeEventListener('change', follow)
  }, [theme])

  return { theme, setTheme }
}
