// `npm run bench:parse`: parse throughput and memory of the streaming XML parsers on large files.
// Generates (once, into .local/bench/) a ~100 MB Nmap XML and a ZAP XML of 50,000 alerts, then reads
// each from a file stream through the same parser the import uses and prints MB/s, findings/s and
// the peak resident and heap memory seen while it ran. Figures only: nothing here asserts a time.
import { createReadStream, createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs'
import { once } from 'node:events'
import { nmapXmlParser } from '#domain/scan-import/nmap-xml.ts'
import type { ScanParser } from '#domain/scan-import/parsed-scan.ts'
import { decodeBytes } from '#domain/scan-import/text-source.ts'
import { zapXmlParser } from '#domain/scan-import/zap-xml.ts'

const DIR = '.local/bench'
const NMAP_BYTES = Number(process.env.BENCH_NMAP_MB ?? 100) * 1024 * 1024
const ZAP_ALERTS = Number(process.env.BENCH_ZAP_ALERTS ?? 50_000)

async function writeLines(path: string, lines: () => Generator<string>) {
  const out = createWriteStream(path)
  let batch = ''
  for (const line of lines()) {
    batch += line
    if (batch.length > 1 << 20) {
      if (!out.write(batch)) await once(out, 'drain')
      batch = ''
    }
  }
  out.end(batch)
  await once(out, 'finish')
}

const ip = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`

function* nmapXml(): Generator<string> {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE nmaprun>\n'
  yield '<nmaprun scanner="nmap" args="nmap -sV --script vulners,ssl-cert -oX bench.xml 10.0.0.0/8" start="1709632800" version="7.94" xmloutputversion="1.05">\n'
  let written = 0
  for (let host = 1; written < NMAP_BYTES; host++) {
    let block = `<host starttime="1709632801" endtime="1709632900"><status state="up" reason="syn-ack" reason_ttl="0"/>\n<address addr="${ip(host)}" addrtype="ipv4"/>\n<hostnames><hostname name="h${host}.example.test" type="PTR"/></hostnames>\n<ports><extraports state="closed" count="995"/>\n`
    block += `<port protocol="tcp" portid="22"><state state="open" reason="syn-ack" reason_ttl="64"/><service name="ssh" product="OpenSSH" version="7.4" extrainfo="protocol 2.0" method="probed" conf="10"><cpe>cpe:/a:openbsd:openssh:7.4</cpe></service>`
    if (host % 4 === 0) {
      const cves = ['CVE-2018-15919\t5.0', 'CVE-2017-15906\t5.0', 'CVE-2020-14145\t4.3', 'CVE-2018-20685\t2.6']
      const output = cves.map((c) => `&#x9;${c.replace('\t', '&#x9;')}&#x9;https://vulners.com/cve/${c.split('\t')[0]}`).join('&#xa;')
      const tables = cves
        .map(
          (c) =>
            `<table>\n<elem key="cvss">${c.split('\t')[1]}</elem>\n<elem key="id">${c.split('\t')[0]}</elem>\n<elem key="is_exploit">false</elem>\n<elem key="type">cve</elem>\n</table>\n`,
        )
        .join('')
      block += `<script id="vulners" output="&#xa;  cpe:/a:openbsd:openssh:7.4: &#xa;${output}"><table key="cpe:/a:openbsd:openssh:7.4">\n${tables}</table>\n</script>`
    }
    block += '</port>\n'
    block += `<port protocol="tcp" portid="80"><state state="open" reason="syn-ack" reason_ttl="64"/><service name="http" product="nginx" version="1.18.0" method="probed" conf="10"/><script id="http-title" output="Welcome to nginx!"><elem key="title">Welcome to nginx!</elem>\n</script></port>\n`
    block += `<port protocol="tcp" portid="443"><state state="open" reason="syn-ack" reason_ttl="64"/><service name="http" product="nginx" version="1.18.0" tunnel="ssl" method="probed" conf="10"/><script id="ssl-cert" output="Subject: commonName=h${host}.example.test&#xa;Issuer: commonName=Example CA&#xa;Not valid after:  2025-01-01T00:00:00"><table key="subject">\n<elem key="commonName">h${host}.example.test</elem>\n</table>\n<table key="issuer">\n<elem key="commonName">Example CA</elem>\n</table>\n<table key="validity">\n<elem key="notBefore">2024-01-01T00:00:00</elem>\n<elem key="notAfter">2025-01-01T00:00:00</elem>\n</table>\n<elem key="sha1">${host.toString(16).padStart(40, '0')}</elem>\n</script></port>\n`
    block += `<port protocol="tcp" portid="8080"><state state="filtered" reason="no-response" reason_ttl="0"/><service name="http-proxy" method="table" conf="3"/></port>\n</ports>\n`
    block += `<os><osmatch name="Linux 5.0 - 5.14" accuracy="96" line="67812"/></os>\n<times srtt="512" rttvar="300" to="100000"/>\n</host>\n`
    written += block.length
    yield block
  }
  yield '<runstats><finished time="1709640000" timestr="Tue Mar  5 12:00:00 2024" elapsed="7200" exit="success"/><hosts up="1" down="0" total="1"/>\n</runstats>\n</nmaprun>\n'
}

function* zapXml(): Generator<string> {
  yield '<?xml version="1.0"?>\n<OWASPZAPReport programName="ZAP" version="2.16.1" generated="Tue, 5 Mar 2024 10:00:00">\n'
  yield '<site name="https://bench.example.test" host="bench.example.test" port="443" ssl="true">\n<alerts>\n'
  for (let alert = 0; alert < ZAP_ALERTS; alert++) {
    const path = `/app/section-${alert % 500}/page-${alert}`
    yield `<alertitem>\n<pluginid>${10000 + (alert % 300)}</pluginid>\n<alertRef>${10000 + (alert % 300)}</alertRef>\n<alert>Bench alert ${alert}</alert>\n<name>Bench alert ${alert}</name>\n<riskcode>${alert % 4}</riskcode>\n<confidence>2</confidence>\n<riskdesc>Medium (Medium)</riskdesc>\n<confidencedesc>Medium</confidencedesc>\n<desc>&lt;p&gt;A generated alert for the parse benchmark, with a paragraph of description text.&lt;/p&gt;</desc>\n<instances>\n<instance>\n<uri>https://bench.example.test${path}?q=1</uri>\n<method>GET</method>\n<param>q</param>\n<attack>&lt;script&gt;alert(1)&lt;/script&gt;</attack>\n<evidence>&lt;script&gt;alert(1)&lt;/script&gt;</evidence>\n<otherinfo></otherinfo>\n</instance>\n<instance>\n<uri>https://bench.example.test${path}</uri>\n<method>POST</method>\n<param>name</param>\n<attack></attack>\n<evidence>Set-Cookie: session</evidence>\n<otherinfo>Other information about this instance.</otherinfo>\n</instance>\n</instances>\n<count>2</count>\n<solution>&lt;p&gt;Fix the generated issue.&lt;/p&gt;</solution>\n<reference>&lt;p&gt;https://owasp.org/www-project-top-ten/&lt;/p&gt;&lt;p&gt;https://cwe.mitre.org/data/definitions/79.html&lt;/p&gt;</reference>\n<cweid>79</cweid>\n<wascid>8</wascid>\n<sourceid>1</sourceid>\n</alertitem>\n`
  }
  yield '</alerts>\n</site>\n</OWASPZAPReport>\n'
}

async function measure(label: string, parser: ScanParser, path: string) {
  const bytes = statSync(path).size
  global.gc?.()
  const baseline = process.memoryUsage()
  let peakRss = baseline.rss
  let peakHeap = baseline.heapUsed
  const sample = () => {
    const usage = process.memoryUsage()
    peakRss = Math.max(peakRss, usage.rss)
    peakHeap = Math.max(peakHeap, usage.heapUsed)
  }
  const sampler = setInterval(sample, 10)
  const started = performance.now()
  const scan = await parser.parse(decodeBytes(createReadStream(path, { highWaterMark: 64 * 1024 })))
  const seconds = (performance.now() - started) / 1000
  clearInterval(sampler)
  sample()
  // What stays after a collection is the parsed result itself, not the reading.
  global.gc?.()
  const retained = process.memoryUsage().heapUsed - baseline.heapUsed
  const mb = bytes / 1024 / 1024
  console.log(
    `\n${label}: ${mb.toFixed(1)} MB, ${scan.findings.length.toLocaleString('en-GB')} findings, ${scan.assets.length.toLocaleString('en-GB')} assets`,
  )
  console.log(
    `  ${seconds.toFixed(2)} s: ${(mb / seconds).toFixed(1)} MB/s, ${Math.round(scan.findings.length / seconds).toLocaleString('en-GB')} findings/s`,
  )
  console.log(
    `  peak RSS ${(peakRss / 1024 / 1024).toFixed(0)} MB (${((peakRss - baseline.rss) / 1024 / 1024).toFixed(0)} MB over the start), ` +
      `peak heap ${(peakHeap / 1024 / 1024).toFixed(0)} MB, of which the parsed result keeps ${(retained / 1024 / 1024).toFixed(0)} MB after GC`,
  )
  console.log(`  statistics ${JSON.stringify(scan.statistics)}; notes ${scan.notes.length}`)
}

mkdirSync(DIR, { recursive: true })
const nmapPath = `${DIR}/nmap-${NMAP_BYTES >> 20}mb.xml`
const zapPath = `${DIR}/zap-${ZAP_ALERTS}-alerts.xml`
if (!existsSync(nmapPath)) await writeLines(nmapPath, nmapXml)
if (!existsSync(zapPath)) await writeLines(zapPath, zapXml)
await measure('Nmap XML', nmapXmlParser, nmapPath)
await measure('OWASP ZAP XML', zapXmlParser, zapPath)
