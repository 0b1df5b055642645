import { createContext, type ReactNode, useContext } from 'react'
import type { ThemeChoice } from '#/lib/theme'
import { useTheme } from '#/lib/theme'

const ThemeContext = createContext<ReturnType<typeof useTheme> | null>(null)

/** One theme state for the whole app: every switch (header, docs sidebar) reads and writes this. */
export function ThemeProvider({ defaultTheme, children }: { defaultTheme: ThemeChoice; children: ReactNode }) {
  const value = useTheme(defaultTheme)
  return <ThemeContext value={value}>{children}</ThemeContext>
}

export function useThemeChoice() {
  const value = useContext(ThemeContext)
  if (!value) throw new Error('useThemeChoice must be used inside <ThemeProvider>')
  return value
}
