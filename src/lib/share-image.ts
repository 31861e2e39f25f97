/** The picture link previews show for a page without one of its own (`public/og-default.png`). */
export const DEFAULT_SHARE_IMAGE = { path: '/og-default.png', width: 1200, height: 630 } as const;
