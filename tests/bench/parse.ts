// `npm run bench:parse`: parse throughput and memory of the streaming XML parsers on large files.
// Generates (once, into .local/bench/) a ~100 MB Nmap XML, a ~100 MB Nessus file and a ZAP XML of
// 50,000 alerts, then reads
// each from a file stream through the same parser the import uses and prints MB/s, findings/s and
// the peak resident and heap memory seen while it ran. Figures only: nothing here asserts a time.
import { createReadStream, createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs'
import { once } from 'node:events'
import { nessusXmlParser } from '#domain/scan-import/nessus-xml.ts'
import { nmapXmlParser } from '#domain/scan-import/nmap-xml.ts'
import type { ScanParser } from '#domain/scan-import/parsed-scan.ts'
import { decodeBytes } from '#domain/scan-import/text-source.ts'
import { zapXmlParser } from '#domain/scan-import/zap-xml.ts'

const DIR = '.local/bench'
const NMAP_BYTES = Number(process.env.BENCH_NMAP_MB ?? 100) * 1024 * 1024
const NESSUS_BYTES = Number(process.env.BENCH_NESSUS_MB ?? 100) * 1024 * 1024
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

/** A Nessus 10 report: a policy with a long plugin_set, then hosts of about 40 items each (a third informational, as real scans are). */
function* nessusXml(): Generator<string> {
  yield '<?xml version="1.0" ?>\n<NessusClientData_v2>\n<Policy><policyName>Bench</policyName>\n<Preferences><ServerPreferences>\n'
  yield `<preference><name>plugin_set</name>\n<value>${Array.from({ length: 280_000 }, (_, i) => 10_000 + i).join(';')}</value>\n</preference>\n`
  yield '<preference><name>TARGET</name>\n<value>10.0.0.0/8</value>\n</preference>\n</ServerPreferences></Preferences></Policy>\n'
  yield '<Report name="Bench" xmlns:cm="http://www.nessus.org/cm">\n'
  const description =
    'According to its self-reported version number, the remote host is running a version of the software that is affected by multiple vulnerabilities, as referenced in the advisory.\n\nNote that Nessus has not tested for these issues but has instead relied only on the application&apos;s self-reported version number.'
  let written = 0
  for (let host = 1; written < NESSUS_BYTES; host++) {
    const address = ip(host)
    let block = `<ReportHost name="${address}"><HostProperties>\n<tag name="HOST_END_TIMESTAMP">1733140800</tag>\n<tag name="operating-system">Linux Kernel 5.15 on Ubuntu 22.04</tag>\n<tag name="host-fqdn">h${host}.example.test</tag>\n<tag name="host-ip">${address}</tag>\n<tag name="cpe-0">cpe:/a:openbsd:openssh:8.9 -&gt; OpenBSD OpenSSH</tag>\n<tag name="HOST_START_TIMESTAMP">1733137200</tag>\n</HostProperties>\n`
    block += `<ReportItem port="0" svc_name="general" protocol="tcp" severity="0" pluginID="19506" pluginName="Nessus Scan Information" pluginFamily="Settings">\n<plugin_output>Information about this scan :\n\nNessus version : 10.8.3\nPlugin feed version : 202412020000\n</plugin_output>\n</ReportItem>\n`
    for (const port of [22, 80, 443]) {
      block += `<ReportItem port="${port}" svc_name="${port === 22 ? 'ssh' : 'www'}" protocol="tcp" severity="0" pluginID="11219" pluginName="Nessus SYN scanner" pluginFamily="Port scanners">\n<plugin_output>Port ${port}/tcp was found to be open</plugin_output>\n</ReportItem>\n`
    }
    for (let item = 0; item < 36; item++) {
      const plugin = 150_000 + ((host * 7 + item) % 5000)
      const severity = item % 3 === 0 ? 0 : 1 + (item % 4)
      const port = [22, 80, 443, 0][item % 4]
      const cves = Array.from(
        { length: 1 + (item % 5) },
        (_, i) => `<cve>CVE-2024-${String(1000 + item * 10 + i).padStart(4, '0')}</cve>`,
      ).join('\n')
      block += `<ReportItem port="${port}" svc_name="${port === 22 ? 'ssh' : port === 0 ? 'general' : 'www'}" protocol="tcp" severity="${severity}" pluginID="${plugin}" pluginName="Bench plugin ${plugin} Multiple Vulnerabilities" pluginFamily="General">\n<cvss3_base_score>${(4 + (item % 6)).toFixed(1)}</cvss3_base_score>\n<cvss3_vector>CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H</cvss3_vector>\n<cvss_base_score>7.5</cvss_base_score>\n<cvss_vector>CVSS2#AV:N/AC:L/Au:N/C:P/I:P/A:P</cvss_vector>\n${cves}\n<cwe>79</cwe>\n<description>${description}</description>\n<fname>bench_${plugin}.nasl</fname>\n<plugin_modification_date>2024/11/30</plugin_modification_date>\n<plugin_publication_date>2024/01/15</plugin_publication_date>\n<plugin_type>remote</plugin_type>\n<risk_factor>High</risk_factor>\n<see_also>https://example.test/advisories/${plugin}</see_also>\n<solution>Upgrade to the latest version.</solution>\n<synopsis>The remote host is affected by multiple vulnerabilities.</synopsis>\n<vpr_score>6.7</vpr_score>\n<epss_score>0.0123</epss_score>\n<xref>IAVA:2024-A-${item}</xref>\n<plugin_output>\n  Installed version : 1.2.${item}\n  Fixed version     : 1.2.${item + 1}\n</plugin_output>\n</ReportItem>\n`
    }
    block += '</ReportHost>\n'
    written += block.length
    yield block
  }
  yield '</Report>\n</NessusClientData_v2>\n'
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
const nessusPath = `${DIR}/nessus-${NESSUS_BYTES >> 20}mb.nessus`
const zapPath = `${DIR}/zap-${ZAP_ALERTS}-alerts.xml`
if (!existsSync(nmapPath)) await writeLines(nmapPath, nmapXml)
if (!existsSync(nessusPath)) await writeLines(nessusPath, nessusXml)
if (!existsSync(zapPath)) await writeLines(zapPath, zapXml)
await measure('Nmap XML', nmapXmlParser, nmapPath)
await measure('Nessus XML', nessusXmlParser, nessusPath)
await measure('OWASP ZAP XML', zapXmlParser, zapPath)
