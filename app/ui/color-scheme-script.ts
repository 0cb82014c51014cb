import { COLOR_SCHEME_KEY, cookieAttributes } from './color-scheme'

/**
 * Runs in `<head>` before the body paints. Also keeps the workspace shortcuts (mod+H, J, M) pressed
 * before the app is interactive, which `replayEarlyHotkeys` plays once it is: they work from the
 * first paint.
 *
 * The colour scheme: The server rendered `<html data-color-scheme>` from the
 * cookie; when localStorage says otherwise (cookie cleared or expired) this applies the stored
 * choice and writes the cookie back so the next server render is right.
 */
export const colorSchemeScript = `(function(){try{
var k=${JSON.stringify(COLOR_SCHEME_KEY)},p=localStorage.getItem(k);
if(p!=='light'&&p!=='dark'&&p!=='auto')return;
var d=document.documentElement;
if(p==='auto')d.removeAttribute('data-color-scheme');else d.setAttribute('data-color-scheme',p);
var c=k+'='+p;
if(('; '+document.cookie+';').indexOf('; '+c+';')<0)document.cookie=c+${JSON.stringify(cookieAttributes)};
}catch(e){}})();
(function(){try{var q=[],w=window;w.__earlyHotkeys=q;
var h=function(e){if(w.__hotkeysReady){w.removeEventListener('keydown',h,true);return}
if(e.repeat||!(e.ctrlKey||e.metaKey)||e.altKey||e.shiftKey)return;
var c=e.code;if(c!=='KeyH'&&c!=='KeyJ'&&c!=='KeyM')return;if(!document.getElementById('navbar'))return;
var t=e.target,n=t&&t.tagName;if(n==='INPUT'||n==='TEXTAREA'||n==='SELECT'||(t&&t.isContentEditable))return;
e.preventDefault();q.push({key:e.key,code:c,ctrlKey:e.ctrlKey,metaKey:e.metaKey})};
w.addEventListener('keydown',h,true)}catch(e){}})()`

type EarlyWindow = Window & { __earlyHotkeys?: KeyboardEventInit[]; __hotkeysReady?: boolean }

/** Plays the shortcuts pressed before hydration, once the app's own listeners are there; later keys go to them directly. */
export function replayEarlyHotkeys(): void {
  const early = window as EarlyWindow
  early.__hotkeysReady = true
  for (const init of early.__earlyHotkeys?.splice(0) ?? []) {
    window.dispatchEvent(new KeyboardEvent('keydown', { ...init, bubbles: true, cancelable: true }))
  }
}
