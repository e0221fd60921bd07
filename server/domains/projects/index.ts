/** What other domains may use of projects: everything else here is the domain's own. */
export { createProject } from './create-project.js';
export { loadProject, loadProjectForAssignment } from './load-project.js';
