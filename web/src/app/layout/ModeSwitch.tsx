import { useStore } from '../../lib/store';
import { MoonIcon, SunIcon } from './icons';

/** Light/dark switch; the store remembers the mode and sets Bootstrap's data-bs-theme. */
export function ModeSwitch() {
  const { state, dispatch } = useStore();
  const isDark = state.mode === 'dark';
  return (
    <div className="form-check form-switch mb-0 d-flex align-items-center gap-2 shop-mode-switch">
      <input
        id="mode-switch"
        className="form-check-input m-0"
        type="checkbox"
        role="switch"
        data-early="mode-switch"
        checked={isDark}
        onChange={() => dispatch({ type: 'TOGGLE_MODE' })}
        aria-label="Dark mode"
      />
      <label htmlFor="mode-switch" className="form-check-label d-flex" title={isDark ? 'Dark mode on' : 'Dark mode off'}>
        {isDark ? <MoonIcon /> : <SunIcon />}
      </label>
    </div>
  );
}
