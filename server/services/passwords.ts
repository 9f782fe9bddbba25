import { type Algorithm, hash, type Options, verify } from '@node-rs/argon2'

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. (`Algorithm` is a const enum: 2 = Argon2id.) */
const OPTIONS: Options = { algorithm: 2 as Algorithm, memoryCost: 19456, timeCost: 2, parallelism: 1 }

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS)
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password)
  } catch {
    // A malformed stored hash is a failed sign-in, not a 500.
    return false
  }
}

let dummyHash: Promise<string> | undefined

/**
 * Spends the same work as a real check when there is no hash to check against (unknown
 * e-mail, account without password), so response time does not reveal which accounts exist.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('dummy-password-never-matches')
  await verifyPassword(await dummyHash, password)
  return false
}
