'use client';
// Who is looking, as the server rendered the page for them: the views leave out what the role does not include
// (the server refuses it anyway), so that a viewer's page asks for nothing it would be refused.
import { createContext, useContext } from 'react';
import { roleAtLeast, type Role, type Viewer } from '@/lib/model/access';

// Without a provider (component tests), the app as it is with sign-in off.
export const ViewerContext = createContext<Viewer>({ kind: 'open', role: 'admin', warning: null });

export function useViewer(): Viewer {
  return useContext(ViewerContext);
}

export function useHasRole(need: Role): boolean {
  return roleAtLeast(useViewer().role, need);
}
