// The published entry of the widget: `npm run build` writes it to dist/attention-playground.js.
// In development (`npm start`), pages load it from here as /attention-playground.js, just as a
// host page loads the built file (see web/examples/blog-post.html).
export * from './src/widgets/attention-playground.js';
