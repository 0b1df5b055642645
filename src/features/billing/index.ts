// What other features may use of billing in the browser (the import rules in .dependency-cruiser.cjs allow nothing
// else): how amounts and plans are written, for a payment provider's own checkout page, which also shows billing's
// refusals in words.
import './billing-messages'

export { money, planSummary } from './billing-format'
