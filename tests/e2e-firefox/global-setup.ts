import { checkFirefoxVersion } from './firefox.ts';

export default function globalSetup(): void {
  checkFirefoxVersion();
}
