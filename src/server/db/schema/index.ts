export * from './users.ts';
export * from './projects.ts';
export * from './community.ts';
export * from './media.ts';
export * from './site.ts';
