import { THEME_STORAGE_KEY } from '@/lib/theme/theme';

/**
 * Runs before first paint so a dark-theme user never sees a light flash: the stored choice, else the
 * system preference. Carries the page's CSP nonce (inline scripts are otherwise refused).
 */
export function ThemeScript({ nonce }: { nonce?: string }) {
  const code = `(function(){try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t!=='light'&&t!=='dark'){t=window.matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light'}var d=document.documentElement;d.dataset.theme=t;d.style.colorScheme=t}catch(e){}})();`;
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: code }} />;
}
