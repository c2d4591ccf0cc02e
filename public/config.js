// Run-time configuration of the admin console (CONTRACT.md). The server serves its own
// /admin/config.js; this copy gives the defaults for `vite` dev and Storybook.
window.__MG_CONFIG__ = { apiPrefix: '/api/admin', defaultAdminEmail: 'admin@example.com' };
