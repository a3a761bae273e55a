export default defineBackground(() => {
  // Wiring only; the reading lives in utils/.
});
