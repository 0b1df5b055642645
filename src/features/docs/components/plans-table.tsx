import { getLocale } from '#/lib/i18n'
import { plansTableRows } from '#/lib/plans-table'

/**
 * The plans, their prices and limits, read from src/lib/plans.ts and the installed apps' plans.ts so the docs never
 * disagree with the product.
 */
export function PlansTable() {
  const [header = [], ...rows] = plansTableRows(getLocale())
  return (
    <table>
      <thead>
        <tr>
          {header.map((cell) => (
            <th key={cell}>{cell}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row[0]}>
            {row.map((cell, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells are its columns, in a fixed order.
              <td key={index}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
