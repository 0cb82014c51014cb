import { COLOR_SCHEME_KEY, cookieAttributes } from './color-scheme'

/**
 * Runs in `<head>` before the body paints. The server rendered `<html data-color-scheme>` from the
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
}catch(e){}})()`
