/**
 * The error a server function sends the browser: the message only. Start serialises an error's own
 * properties, so a stack (paths of the Worker bundle) or a cause (a library's error, a token's
 * payload) would travel with it.
 */
export function plainError(error: unknown): Error {
  const plain = new Error(error instanceof Error ? error.message : 'The server could not complete the request.')
  delete plain.stack
  return plain
}
