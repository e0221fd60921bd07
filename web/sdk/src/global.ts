import { createSDK } from './sdk.js';

// The script-tag build: the global `InterviewSDK`; baseUrl defaults to the origin the script came from.
const script = document.currentScript as HTMLScriptElement | null;
(window as unknown as { InterviewSDK: unknown }).InterviewSDK = createSDK(script?.src ? new URL(script.src).origin : undefined);
