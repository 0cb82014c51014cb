// Progressive enhancement of the server-rendered inbox (it works without this script, minus live
// updates and the buttons): live refresh over Server-Sent Events, navigation without full page
// loads, Clear and Delete. All markup is rendered (and escaped) by the server; this script only
// moves nodes of such pages into the document.
'use strict'

let queue = Promise.resolve()
/** Runs loads one after another, so a live refresh never races a navigation. */
function enqueue(task) {
  queue = queue.then(task, task).catch(() => {})
  return queue
}

function focusedKey() {
  const el = document.activeElement
  return el instanceof HTMLElement ? el.dataset.key : undefined
}

function focusKey(key) {
  if (!key) return
  const el = document.querySelector(`[data-key="${CSS.escape(key)}"]`)
  if (el instanceof HTMLElement) el.focus()
}

function replaceChildrenFrom(doc, id) {
  const next = doc.getElementById(id)
  const current = document.getElementById(id)
  if (!next || !current) return
  current.replaceChildren(...Array.from(next.childNodes, (node) => document.adoptNode(node)))
  if (next.dataset.key !== undefined) current.dataset.key = next.dataset.key
}

async function load(url, options = {}) {
  const response = await fetch(url, { headers: { accept: 'text/html' } })
  if (!response.ok) return
  const doc = new DOMParser().parseFromString(await response.text(), 'text/html')
  const key = options.focus ?? focusedKey()
  if (options.push && url !== location.href) history.pushState(null, '', url)
  document.title = doc.title
  document.body.dataset.version = doc.body.dataset.version
  replaceChildrenFrom(doc, 'list')
  replaceChildrenFrom(doc, 'count')
  // the detail pane (and its iframe) is only replaced when it shows something else
  const detail = doc.getElementById('detail')
  if (detail && detail.dataset.key !== document.getElementById('detail')?.dataset.key) {
    replaceChildrenFrom(doc, 'detail')
  }
  focusKey(key)
}

function refresh() {
  return enqueue(() => load(location.href))
}

function navigate(url, focus) {
  return enqueue(() => load(new URL(url, location.href).href, { push: true, focus }))
}

document.addEventListener('click', (event) => {
  if (!(event.target instanceof Element)) return
  const link = event.target.closest('a[data-nav]')
  if (link instanceof HTMLAnchorElement) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    navigate(link.href, link.dataset.key)
    return
  }
  const button = event.target.closest('button')
  if (!(button instanceof HTMLButtonElement)) return
  if (button.id === 'clear') {
    enqueue(async () => {
      await fetch('/api/messages', { method: 'DELETE' })
      await load(new URL('/', location.href).href, { push: true, focus: 'none' })
    })
  } else if (button.dataset.delete !== undefined) {
    const id = button.dataset.delete
    enqueue(async () => {
      await fetch(`/api/messages/${encodeURIComponent(id)}`, { method: 'DELETE' })
      const params = new URLSearchParams(location.search)
      params.delete('id')
      const query = params.toString()
      await load(new URL(query ? `/?${query}` : '/', location.href).href, { push: true, focus: 'none' })
      const first = document.querySelector('#list a')
      if (first instanceof HTMLElement) first.focus()
    })
  }
})

// arrow keys move between messages in the list
document.addEventListener('keydown', (event) => {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return
  const current = document.activeElement
  if (!(current instanceof HTMLAnchorElement) || !current.closest('#list')) return
  const links = Array.from(document.querySelectorAll('#list a'))
  const next = links[links.indexOf(current) + (event.key === 'ArrowDown' ? 1 : -1)]
  if (next instanceof HTMLElement) {
    event.preventDefault()
    next.focus()
  }
})

window.addEventListener('popstate', refresh)

// live updates: the server sends the store's version on connect and after every change; a
// restarted catcher starts again at 0, so any difference means "reload the list"
const events = new EventSource('/api/events')
events.addEventListener('change', (event) => {
  const { version } = JSON.parse(event.data)
  if (String(version) !== document.body.dataset.version) refresh()
})
