// The vault's pages copy links and secrets with the design system's button.
export { CopyButton } from '~/ui/copy-button'
