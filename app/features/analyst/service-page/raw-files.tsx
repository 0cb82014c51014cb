// The files a scan was imported from, each with a link to its raw file where the import kept it
// (password audits never are: their files hold clear-text passwords).
import { keepsRawFile, rawScanFileUrl } from '#domain/scan-import-calls.ts'
import type { Scan } from '#domain/scans.ts'
import { Muted } from './parts'

const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`)

export function RawFiles({ company, scan }: { company: string; scan: Scan }) {
  if (scan.files.length === 0) return null
  return (
    <div>
      <Muted as="span">Imported from: </Muted>
      <ul aria-label="Imported files" style={{ margin: '4px 0 0', paddingLeft: 20 }}>
        {scan.files.map((file) => (
          <li key={file.sha256}>
            {keepsRawFile(scan.service, file.format) ? (
              <a href={rawScanFileUrl(company, scan.id, file.sha256)} download={file.name}>
                {file.name}
              </a>
            ) : (
              file.name
            )}{' '}
            <Muted as="span">
              {file.tool}
              {file.size ? `, ${size(file.size)}` : ''}, SHA-256 <code>{file.sha256.slice(0, 16)}…</code>
            </Muted>
          </li>
        ))}
      </ul>
    </div>
  )
}
