/**
 * The statements of a SQL script, split at the semicolons between them. Quoted strings, quoted
 * identifiers, dollar-quoted bodies ($$ … $$, $fn$ … $fn$) and comments are taken whole, so a
 * function body's own semicolons stay inside it. (Not understood: E'' strings with \' inside.)
 * Pieces with nothing but comments and space are left out.
 */
export function sqlStatements(script: string): string[] {
  const statements: string[] = []
  let start = 0
  let code = false
  const close = (end: number) => {
    if (code) statements.push(script.slice(start, end).trim())
    start = end + 1
    code = false
  }
  const skipTo = (from: number, token: string, what: string) => {
    const end = script.indexOf(token, from)
    if (end < 0) throw new Error(`unterminated ${what} at offset ${from}`)
    return end + token.length
  }
  let i = 0
  while (i < script.length) {
    const c = script[i]
    if (c === '-' && script[i + 1] === '-') {
      const end = script.indexOf('\n', i)
      i = end < 0 ? script.length : end + 1
    } else if (c === '/' && script[i + 1] === '*') {
      i = skipTo(i + 2, '*/', 'comment')
    } else if (c === "'" || c === '"') {
      i = skipTo(i + 1, c, 'quote')
      code = true
    } else if (c === '$' && !/[\w$]/.test(script[i - 1] ?? '') && /^\$(?:[A-Za-z_]\w*)?\$/.test(script.slice(i, i + 64))) {
      const tag = /^\$(?:[A-Za-z_]\w*)?\$/.exec(script.slice(i, i + 64))![0]
      i = skipTo(i + tag.length, tag, `dollar quote ${tag}`)
      code = true
    } else {
      if (c === ';') close(i)
      else if (!/\s/.test(c)) code = true
      i++
    }
  }
  close(script.length)
  return statements
}
