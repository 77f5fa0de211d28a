import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useLocation } from 'react-router';

/**
 * A small disclosure menu for the navbar (user menu, admin menu): a toggle button with aria-expanded
 * and a list of links. Keyboard: Enter/Space/ArrowDown open it and focus the first link, arrow keys move,
 * Escape closes and returns focus to the toggle. It closes on outside click and on navigation.
 * Bootstrap's own dropdown would pull a positioning engine into the initial bundle for no gain here.
 */
export function HeaderMenu({ label, children, align = 'end', className = '' }: { label: ReactNode; children: ReactNode; align?: 'start' | 'end'; className?: string }) {
  const [isOpen, setIsOpen] = useState(false);
  const id = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();

  useEffect(() => {
    setIsOpen(false);
  }, [location.key]);

  useEffect(() => {
    if (!isOpen) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setIsOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [isOpen]);

  const items = () => Array.from(rootRef.current?.querySelectorAll<HTMLElement>('.dropdown-menu a, .dropdown-menu button') ?? []);

  const focusItem = (index: number) => {
    const list = items();
    if (list.length === 0) return;
    list[(index + list.length) % list.length]?.focus();
  };

  const onToggleKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setIsOpen(true);
      requestAnimationFrame(() => focusItem(0));
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = items();
    const current = list.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      setIsOpen(false);
      toggleRef.current?.focus();
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      focusItem(current + 1);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      focusItem(current - 1);
    } else if (event.key === 'Home') {
      event.preventDefault();
      focusItem(0);
    } else if (event.key === 'End') {
      event.preventDefault();
      focusItem(list.length - 1);
    }
  };

  return (
    <div ref={rootRef} className={`nav-item dropdown ${className}`} onKeyDown={onMenuKeyDown}>
      <button
        ref={toggleRef}
        type="button"
        className="nav-link dropdown-toggle btn btn-link"
        aria-expanded={isOpen}
        aria-controls={id}
        onClick={() => setIsOpen((open) => !open)}
        onKeyDown={onToggleKeyDown}
      >
        {label}
      </button>
      <div id={id} data-bs-popper="static" className={`dropdown-menu ${align === 'end' ? 'dropdown-menu-lg-end' : ''} ${isOpen ? 'show' : ''}`} hidden={!isOpen} onClick={() => setIsOpen(false)}>
        {children}
      </div>
    </div>
  );
}
