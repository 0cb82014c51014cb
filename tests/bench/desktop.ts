// The desktop app's cold start (process launched to Home's first contentful paint, in a real
// window under Xvfb, against the local stack) and its installed size. Run under the stack lock:
//   flock /tmp/bulwark-stack.lock npm run bench:desktop [-- --runs=5 --profile=release]
import { execFileSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { basename } from 'node:path'
import { parseArgs } from 'node:util'
import { appBinary, debPackage } from '../../desktop/paths.ts'
import startStack from '../desktop/stack.ts'
import { DesktopHarness, PRODUCT_URL } from '../desktop/support/desktop.ts'
import { waitFor } from '../desktop/support/webdriver.ts'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, profile: { type: 'string', default: '' } } })
const runs = Number(values.runs)
const profile = (values.profile || (existsSync(appBinary('release')) ? 'release' : 'debug')) as 'debug' | 'release'

const stopStack = await startStack()
const starts: number[] = []
try {
  for (let run = 0; run < runs; run++) {
    // A fresh home each time: no remembered window, no cached pages.
    const harness = new DesktopHarness(appBinary(profile))
    await harness.start()
    try {
      const launched = Date.now()
      const app = await harness.launch()
      const paintedAt = await waitFor('first paint of Home', async () => {
        if ((await app.url()) !== PRODUCT_URL) return undefined
        return app.execute<number | null>(
          `const paint = performance.getEntriesByName('first-contentful-paint')[0]
           return paint && document.querySelector('input[type=email]') ? performance.timeOrigin + paint.startTime : null`,
        )
      })
      starts.push(Math.round(paintedAt! - launched))
    } finally {
      await harness.stop()
    }
  }
} finally {
  await stopStack()
}

const sorted = [...starts].sort((a, b) => a - b)
const median = sorted[Math.floor(sorted.length / 2)]!
console.log(
  `desktop cold start to first paint of Home (${profile} build, ${runs} runs): median ${median} ms, first ${starts[0]} ms, max ${sorted.at(-1)} ms`,
)

const binary = appBinary(profile)
console.log(`app executable (${profile}): ${(statSync(binary).size / 1024 / 1024).toFixed(1)} MiB`)
// The release package is the one people install; the debug one (.ci/run's, from the tests' build) otherwise.
for (const packageProfile of ['release', 'debug'] as const) {
  const deb = debPackage(packageProfile)
  if (!deb) continue
  const installedKiB = Number(execFileSync('dpkg-deb', ['-f', deb, 'Installed-Size'], { encoding: 'utf8' }).trim())
  console.log(
    `${basename(deb)} (${packageProfile}): ${(statSync(deb).size / 1024 / 1024).toFixed(1)} MiB to download, ${(installedKiB / 1024).toFixed(1)} MiB installed`,
  )
}
if (!debPackage('release') && !debPackage('debug')) console.log('no .deb yet: `npm run desktop:build` makes one')
