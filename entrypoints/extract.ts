import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { answerPendingExtract, pageReader } from '@/utils/content/page-reader';

// Injected on demand (activeTab + scripting) and resident from then on: it only installs the page
// reader, which answers the background's `extract` / `highlight` / `clearHighlight` messages
// (utils/messaging/content.ts). A second injection finds the first's reader and adds nothing. An
// extraction handed over with the injection is answered as its result (utils/page-text/tab-text.ts).
// A start injects this script's code as a function, its request the argument (`extractScript` in
// utils/messaging/content.ts: the build puts this file's code in it); the file itself is put in ahead of
// a likely start (`readyTab`).
//
// An unlisted script, not a WXT content script: WXT's content-script context reads `runtime.id` as it
// loads, and a content script's first touch of the extension API builds that API in the page (slow in
// Firefox, on each first injection). Here nothing touches it before the answer: the message handlers
// are installed in the task after it.
export default defineUnlistedScript(() => answerPendingExtract(pageReader()));
