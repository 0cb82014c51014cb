// Notes of line-based files, one per run: a file's thousand Kerberos key lines are one note, not
// a thousand. Notes never quote the line: the files hold hashes and passwords.
import type { ImportNote } from './parsed-scan.ts'

export class LineNotes {
  private run: { level: ImportNote['level']; message: string; first: number; last: number; count: number } | null = null

  private readonly emit: (note: ImportNote) => void
  /** Names the file in `where` when an import reads several: "pot file line 12". */
  private readonly file: string

  constructor(emit: (note: ImportNote) => void, file = '') {
    this.emit = emit
    this.file = file
  }

  add(level: ImportNote['level'], message: string, line: number): void {
    const run = this.run
    if (run && run.level === level && run.message === message) {
      run.last = line
      run.count++
      return
    }
    this.flush()
    this.run = { level, message, first: line, last: line, count: 1 }
  }

  /** Emits the pending run; call it when the file ends. */
  flush(): void {
    const run = this.run
    if (!run) return
    this.run = null
    const prefix = this.file ? `${this.file} ` : ''
    const where = run.count === 1 ? `${prefix}line ${run.first}` : `${prefix}lines ${run.first}–${run.last}`
    this.emit({ level: run.level, where, message: run.count === 1 ? run.message : `${run.message} (${run.count} lines)` })
  }
}
