// DOM tests wait for what a person would see (findBy…, waitFor). Testing Library gives up after 1 s,
// which a busy two-core machine can spend on a first render of a large list or a lazy module: the
// tests wait on the same conditions, 5 s at most.
import { configure } from '@testing-library/dom'

configure({ asyncUtilTimeout: 5_000 })
