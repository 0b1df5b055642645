// What other features may use of books in the browser (the import rules in .dependency-cruiser.cjs allow nothing else):
// a book as its form sends it.
export { bookWithTitle } from './schemas'
