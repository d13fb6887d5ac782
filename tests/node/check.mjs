// check.mjs - what the node tests of tests/cli/sabaki.sh share: check()
// runs one named check and prints "ok" or "FAIL" with the reason, and
// finish() prints the counts and exits non-zero after a failure.
let failures = 0, checks = 0

export async function check(name, fn) {
  checks++
  try {
    await fn()
    console.log(`ok   ${name}`)
  } catch (err) {
    failures++
    console.log(`FAIL ${name}: ${err.message}`)
  }
}

export function finish() {
  console.log(`node: ${checks - failures} passed, ${failures} failed`)
  process.exit(failures ? 1 : 0)
}
