/**
 * The flows' factories and the composition root with fake dependencies at the actor boundary:
 * what one actor's outcome does to another goes through events between actors.
 */
import { describe, expect, it } from 'vitest'
import { createActor, type InspectionEvent, waitFor } from 'xstate'
import type { MyCompany, QueuedFile } from '../../contract'
import type { Api } from '../../src/api'
import { composeApp } from '../../src/composition'
import { createAccountImplementations } from '../../src/machines/account/account.implementations'
import { createDashboardImplementations } from '../../src/machines/dashboard/dashboard.implementations'
import { createSessionImplementations } from '../../src/machines/session/session.implementations'
import type { Notice, Notify } from '../../src/machines/shared/notice'
import { createUploadsImplementations } from '../../src/machines/uploads/uploads.implementations'
import { ada } from '../support/fixtures'

const acme: MyCompany = {
  id: 7,
  name: 'Acme',
  enabled: true,
  logo_path: null,
  powerbi_link: null,
  monday_link: null,
  role: 'COMPANY_ADMIN',
}

const invoice = (name: string): QueuedFile => ({
  file: new File(['%PDF-1.4'], name, { type: 'application/pdf' }),
  documentType: 'invoice',
  category: 'Invoices',
})

/** Records every notice by its code. */
function recordingNotifier(log: string[]): Notify {
  return (notice) => void log.push(notice.code)
}

/** An upload call that waits until the test answers it (or the queue aborts it). */
function pendingUploads() {
  const answers: ((status: string) => void)[] = []
  const aborted: string[] = []
  const upload = (input: { file: File }, options: { signal?: AbortSignal }) =>
    new Promise<{ id: number; status: string }>((resolve, reject) => {
      answers.push((status) => resolve({ id: answers.length, status }))
      options.signal?.addEventListener('abort', () => {
        aborted.push(input.file.name)
        reject(new DOMException('Aborted', 'AbortError'))
      })
    })
  return { upload, answers, aborted }
}

describe('the upload flow and the dashboard', () => {
  it("an upload that completes reloads the dashboard through the dashboard's own `uploads` actor, once per upload, while it runs", async () => {
    const uploads = pendingUploads()
    const flow = createUploadsImplementations({
      api: { documents: { upload: uploads.upload } } as unknown as Pick<Api, 'documents'>,
      notify: recordingNotifier([]),
      session: {
        on: () => ({ unsubscribe: () => undefined }),
        getSnapshot: () => ({ context: { user: null } }),
      } as never,
      companySelection: { getSnapshot: () => ({ context: { selectedId: 7 } }) } as never,
    })
    const queue = createActor(flow.uploadQueue).start()
    const accepted: unknown[] = []
    queue.on('uploads.accepted', (event) => void accepted.push(event))

    const calls: number[] = []
    const { dashboard } = createDashboardImplementations({
      api: {
        logs: {
          list: async (companyId: number) => {
            calls.push(companyId)
            return { logs: [], hasMore: false }
          },
          summary: async () => ({ total: 0, pending: 0, failed: 0 }),
          remove: async () => undefined,
        },
      } as unknown as Pick<Api, 'logs'>,
      notify: recordingNotifier([]),
      uploads: queue,
    })
    // The settled upload reaches the dashboard as an event from its `uploads` child (the inspector sees it).
    const received: string[] = []
    const board = createActor(dashboard, {
      input: { companyId: 7 },
      inspect: (e) => {
        if (e.type === '@xstate.event' && (e.sourceRef as { id?: string } | undefined)?.id === 'uploads')
          received.push(e.event.type)
      },
    }).start()
    await waitFor(board, () => calls.length === 1)

    queue.send({ type: 'uploads.add', files: [invoice('a.pdf')], companyId: 7, at: 0 })
    await waitFor(queue, () => uploads.answers.length === 1)
    expect(calls).toHaveLength(1)
    uploads.answers[0]!('COMPLETED')
    await waitFor(queue, (s) => s.context.uploads[0]?.status === 'success')
    await waitFor(board, (s) => s.matches({ data: 'ready' }) && received.length === 2)
    // The server took the upload (its row shows at once), then it settled: two reloads.
    expect(received).toEqual(['uploads.accepted', 'uploads.settled'])
    expect(calls.length).toBeGreaterThan(1)
    // The server took the upload: listeners learn it with the company and the new document.
    expect(accepted).toEqual([{ type: 'uploads.accepted', companyId: 7, documentId: 1 }])

    // Another company's upload is not this list's: only its settling reaches the dashboard.
    queue.send({ type: 'uploads.add', files: [invoice('c.pdf')], companyId: 8, at: 1 })
    await waitFor(queue, () => uploads.answers.length === 2)
    uploads.answers[1]!('COMPLETED')
    await waitFor(queue, (s) => s.context.uploads.every((u) => u.status === 'success'))
    await waitFor(board, (s) => s.matches({ data: 'ready' }) && received.length === 3)
    expect(received).toEqual(['uploads.accepted', 'uploads.settled', 'uploads.settled'])
    expect(accepted).toHaveLength(2)

    // Once stopped (the dashboard left the screen), an upload no longer reaches it.
    const before = calls.length
    board.stop()
    queue.send({ type: 'uploads.add', files: [invoice('b.pdf')], companyId: 7, at: 2 })
    await waitFor(queue, () => uploads.answers.length === 3)
    uploads.answers[2]!('COMPLETED')
    await waitFor(queue, (s) => s.context.uploads.every((u) => u.status === 'success'))
    expect(calls).toHaveLength(before)
    expect(accepted).toHaveLength(3)
  })
})

describe('the dashboard flow', () => {
  const failingLogs = (error: unknown) =>
    ({
      logs: {
        list: async () => {
          throw error
        },
        summary: async () => ({ total: 0, pending: 0, failed: 0 }),
      },
    }) as unknown as Pick<Api, 'logs'>

  it("a list that cannot load says so by the failure's code; a failure without a message keeps the notice's text", async () => {
    const notices: Notice[] = []
    for (const error of [Object.assign(new Error('Internal server error'), { status: 500 }), new Error('')]) {
      const { dashboard } = createDashboardImplementations({
        api: failingLogs(error),
        notify: (n) => void notices.push(n),
      })
      const board = createActor(dashboard, { input: { companyId: 7 } }).start()
      await waitFor(board, (s) => s.matches({ data: 'failed' }))
      board.stop()
    }
    expect(notices.map((n) => [n.code, n.failure?.code ?? null])).toEqual([
      ['logs.fetchFailed', 'internalError'],
      ['logs.fetchFailed', null],
    ])
  })
})

/** The API the root needs, faked: a signed-in user (until logout), one company, French saved. */
function fakeApi(uploads: ReturnType<typeof pendingUploads>, calls: string[], companies = [acme]) {
  let signedIn = true
  return {
    auth: {
      loggedIn: async () => {
        calls.push('loggedIn')
        if (!signedIn) throw Object.assign(new Error('Not authenticated'), { status: 401 })
        return ada
      },
      session: async () => {
        calls.push('session')
        return { user: signedIn ? ada : null }
      },
      logout: async () => {
        calls.push('logout')
        signedIn = false
      },
    },
    companies: {
      mine: async () => {
        calls.push('companies.mine')
        return companies
      },
      logoUrl: () => '',
      users: async () => [],
    },
    settings: {
      getMine: async () => {
        calls.push('settings.getMine')
        return { language: 'fr' as const }
      },
      saveMine: async () => undefined,
    },
    locales: {
      load: async (language: string) => {
        calls.push(`locales.load:${language}`)
        return {}
      },
    },
    documents: { upload: uploads.upload },
    logs: {
      list: async () => {
        calls.push('logs.list')
        return { logs: [], hasMore: false }
      },
      summary: async () => ({ total: 0, pending: 0, failed: 0 }),
    },
    loadAdmin: async () => ({}),
    loadDetails: async () => ({}),
  } as unknown as Api
}

function composeWithFakes(
  inspect?: (event: InspectionEvent) => void,
  options: { companies?: MyCompany[]; visits?: string[] } = {},
) {
  const calls: string[] = []
  const notices: string[] = []
  const uploads = pendingUploads()
  const storage = new Map<string, string>()
  const activated: string[] = []
  const actors = composeApp({
    api: fakeApi(uploads, calls, options.companies),
    notify: recordingNotifier(notices),
    navigate: { toPath: (path) => void options.visits?.push(path), toLogin: () => undefined },
    storage: {
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => void storage.set(key, value),
    },
    locale: { activate: (language) => void activated.push(language), storageKey: 'lang' },
    clipboard: { writeText: async () => undefined },
    initialLanguage: 'en',
    inspect,
  })
  actors.session.start()
  actors.language.start()
  actors.companySelection.start()
  return { actors, calls, notices, uploads, storage, activated }
}

describe('the composition root', () => {
  it("the session's signing in loads the companies and the saved language", async () => {
    const { actors, calls, activated } = composeWithFakes()
    await waitFor(actors.session, (s) => s.matches('signedIn'))
    await waitFor(actors.companySelection, (s) => s.context.selectedId === 7)
    await waitFor(actors.language, () => activated.includes('fr'))
    expect(calls).toContain('companies.mine')
    expect(calls).toContain('settings.getMine')
    expect(calls).toContain('locales.load:fr')
  })

  it('signing out clears the upload list (aborting what is still sending) and forgets the companies', async () => {
    // What reaches the queue from its `session` child: the inspector sees the sign-out's effect.
    const fromSession: string[] = []
    const { actors, uploads } = composeWithFakes((e) => {
      if (e.type === '@xstate.event' && (e.sourceRef as { id?: string } | undefined)?.id === 'session')
        fromSession.push(e.event.type)
    })
    await waitFor(actors.companySelection, (s) => s.context.selectedId === 7)
    await actors.loadScreens()
    const queue = actors.uploadQueue!
    queue.send({ type: 'uploads.add', files: [invoice('a.pdf'), invoice('b.pdf')], companyId: 7, at: 0 })
    await waitFor(queue, () => uploads.answers.length === 2)
    expect(queue.getSnapshot().context.uploads).toHaveLength(2)

    actors.session.send({ type: 'session.logout' })
    await waitFor(actors.session, (s) => s.matches('signedOut'))
    await waitFor(queue, (s) => s.context.uploads.length === 0)
    expect(uploads.aborted.sort()).toEqual(['a.pdf', 'b.pdf'])
    expect(actors.companySelection.getSnapshot().context.selectedId).toBeNull()
    expect(fromSession).toEqual(['uploads.clearAll'])
  })

  it("the root's dashboard reloads when the root's upload queue settles an upload", async () => {
    const { actors, calls, uploads } = composeWithFakes()
    await waitFor(actors.companySelection, (s) => s.context.selectedId === 7)
    await actors.loadScreens()
    const board = createActor(actors.machines.dashboard, { input: { companyId: 7 } }).start()
    await waitFor(board, (s) => s.matches({ data: 'ready' }))
    const lists = () => calls.filter((c) => c === 'logs.list').length
    expect(lists()).toBe(1)
    actors.uploadQueue!.send({ type: 'uploads.add', files: [invoice('a.pdf')], companyId: 7, at: 0 })
    await waitFor(actors.uploadQueue!, () => uploads.answers.length === 1)
    uploads.answers[0]!('COMPLETED')
    await waitFor(board, () => lists() === 2)
    board.stop()
  })

  it("the upload panel's View opens the document on its company's dashboard, selecting that company and showing the dashboard when needed", async () => {
    const globex: MyCompany = { ...acme, id: 8, name: 'Globex' }
    const visits: string[] = []
    const { actors, uploads } = composeWithFakes(undefined, { companies: [acme, globex], visits })
    await waitFor(actors.companySelection, (s) => s.context.selectedId === 7)
    await actors.loadScreens()
    const queue = actors.uploadQueue!
    const settle = async (companyId: number) => {
      const n = uploads.answers.length
      queue.send({ type: 'uploads.add', files: [invoice(`${n}.pdf`)], companyId, at: n })
      await waitFor(queue, () => uploads.answers.length === n + 1)
      uploads.answers[n]!('COMPLETED')
      await waitFor(queue, (s) => s.context.uploads[n]?.status === 'success')
      return queue.getSnapshot().context.uploads[n]!
    }
    const dashboardOf = async (companyId: number) => {
      const board = createActor(actors.machines.dashboard, { input: { companyId } }).start()
      await waitFor(board, (s) => s.matches({ data: 'ready' }))
      return board
    }
    const viewing = (board: Awaited<ReturnType<typeof dashboardOf>>) => {
      const rows = board.getSnapshot().children.rowActions!.getSnapshot()
      return rows.matches('viewing') ? rows.context.detail : null
    }

    // Acme's dashboard on screen, an Acme upload viewed: it opens there.
    const onScreen = await dashboardOf(7)
    const mine = await settle(7)
    queue.send({ type: 'upload.view', id: mine.id })
    await waitFor(onScreen, (s) => s.children.rowActions!.getSnapshot().matches('viewing'))
    expect(viewing(onScreen)).toEqual({ kind: 'invoice', id: mine.documentId })
    onScreen.stop()
    // Taken: a later Acme dashboard opens nothing.
    const later = await dashboardOf(7)
    expect(viewing(later)).toBeNull()

    // A Globex upload viewed from Acme's dashboard: Globex is selected and the dashboard shown,
    // Acme's dashboard does not open it, Globex's opens it as it starts, once.
    const theirs = await settle(8)
    queue.send({ type: 'upload.view', id: theirs.id })
    expect(actors.companySelection.getSnapshot().context.selectedId).toBe(8)
    expect(visits.at(-1)).toBe('/')
    expect(viewing(later)).toBeNull()
    later.stop()
    const switched = await dashboardOf(8)
    expect(viewing(switched)).toEqual({ kind: 'invoice', id: theirs.documentId })
    switched.stop()
    expect(viewing(await dashboardOf(8))).toBeNull()
  })

  it('loads the signed-in screens (upload queue, dashboard) only once the session is signed in, once per root', async () => {
    const { actors } = composeWithFakes()
    expect(actors.uploadQueue).toBeUndefined()
    expect(actors.loadScreens()).toBe(actors.loadScreens())
    await waitFor(actors.session, (s) => s.matches('signedIn'))
    await actors.loadScreens()
    expect(actors.uploadQueue?.getSnapshot().status).toBe('active')
    expect(actors.machines.dashboard).toBeDefined()
    expect(actors.machines.resetConfirm).toBeUndefined()
    await actors.loadAccount()
    expect(actors.machines.resetConfirm).toBeDefined()
  })

  it('loads the administration and detail machines once per root, not once per module', async () => {
    const first = composeWithFakes().actors
    const second = composeWithFakes().actors
    expect(first.loadAdmin()).toBe(first.loadAdmin())
    expect(first.loadDetails!()).toBe(first.loadDetails!())
    expect(first.loadAdmin()).not.toBe(second.loadAdmin())
    const [a, b] = await Promise.all([first.loadAdmin(), second.loadAdmin()])
    expect(a.adminUsers).toBeDefined()
    expect(a).not.toBe(b)
  })
})

describe('the session flow', () => {
  it('leaving the two-factor step goes back to the login page through the injected navigator, without a return path', async () => {
    const visits: string[] = []
    const { session } = createSessionImplementations({
      api: {
        auth: {
          loggedIn: async () => {
            throw Object.assign(new Error('Not authenticated'), { status: 401 })
          },
          login: async () => ({ requires_2fa: true, should_setup_2fa: false }),
        },
      } as unknown as Pick<Api, 'auth'>,
      notify: () => undefined,
      navigate: {
        toPath: (path) => void visits.push(`path:${path}`),
        toLogin: (returnHere) => void visits.push(`login:${returnHere}`),
      },
    })
    const actor = createActor(session).start()
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }))
    actor.send({ type: 'session.login', email: 'ada@example.com', password: 'correct horse battery' })
    await waitFor(actor, (s) => s.matches({ signedOut: 'secondFactor' }))
    const before = visits.length
    actor.send({ type: 'session.reset' })
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true)
    expect(actor.getSnapshot().context.pendingCredentials).toBeNull()
    expect(visits.slice(before)).toEqual(['login:false'])
  })
})

describe('the account flow', () => {
  it.each([
    ['activationLink', 'account.invalidValidationLink'],
    ['resetLink', 'account.invalidResetLink'],
  ] as const)('%s without its token says %s and replaces the page with the login', (machine, code) => {
    const notices: string[] = []
    const visits: string[] = []
    const account = createAccountImplementations({
      api: { auth: {}, settings: {} } as Pick<Api, 'auth' | 'settings'>,
      notify: recordingNotifier(notices),
      navigate: {
        toPath: (path, options) => void visits.push(`${options?.replace ? 'replace' : 'push'}:${path}`),
        toLogin: (returnHere) => void visits.push(`login:${returnHere}`),
      },
      clipboard: { writeText: async () => undefined },
      session: { send: () => undefined },
    })
    createActor(account[machine]).start().send({ type: 'link.open', token: '', email: 'ada@example.com' })
    expect(notices).toEqual([code])
    expect(visits).toEqual(['replace:/login'])
  })
})
